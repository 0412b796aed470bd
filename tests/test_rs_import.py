"""`toolcontract.core.schema.rs_import`: jsonschema-rs loads without `email.utils`, and nothing else changes.

Each check runs in a fresh interpreter: what is imported is the point."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_later_import_of_email_utils_gets_the_real_module():
    out = run("""
        from toolcontract.core.schema import rs_import
        rs_import.load()
        import email.utils, datetime
        assert type(email.utils) is type(datetime), type(email.utils)
        print(email.utils.parsedate_to_datetime("Thu, 12 Nov 2026 07:50:16 +0000").year, email.utils.formatdate(0)[:3])
    """)
    assert out == "2026 Thu"


def test_with_email_utils_already_imported_the_plain_import_runs():
    out = run("""
        import email.utils
        from toolcontract.core.schema import rs_import
        rs = rs_import.load()
        build = getattr(rs, "__build__", None) or rs.jsonschema_rs.__build__
        print(type(build.get("info-time")).__name__)
    """)
    assert out == "datetime"


def test_any_other_attribute_of_the_stand_in_is_the_real_modules_and_replaces_it():
    out = run("""
        import sys
        from toolcontract.core.schema.rs_import import _StandIn
        stand_in = _StandIn("email.utils")
        sys.modules["email.utils"] = stand_in
        formatdate = stand_in.formatdate
        print(formatdate(0)[:3], sys.modules["email.utils"] is not stand_in, type(sys.modules["email.utils"]).__name__)
    """)
    assert out == "Thu True module"


def test_the_stand_in_leaves_sys_modules_when_the_import_fails():
    out = run("""
        import sys
        import builtins
        real_import = builtins.__import__
        def failing(name, *args, **kwargs):
            if name == "jsonschema_rs":
                raise ImportError("no jsonschema_rs here")
            return real_import(name, *args, **kwargs)
        builtins.__import__ = failing
        from toolcontract.core.schema import rs_import
        try:
            rs_import.load()
        except ImportError as exc:
            print(exc, "email.utils" in sys.modules)
    """)
    assert out == "no jsonschema_rs here False"


def test_load_returns_the_one_module():
    out = run("""
        import jsonschema_rs
        from toolcontract.core.schema import rs_import
        print(rs_import.load() is jsonschema_rs)
    """)
    assert out == "True"
