"""Issue 13, points 5 and 6: TC203 judges what a description says (not its sentences), TC102 catches
catch-all names, and TC418 reports MCP tools named or described as reads without `readOnlyHint: true`."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import corpus_dir, examples, lint
from toolcontract.lint.engine import Selection, lint_files

# ------------------------------------------------------------------------------------------ TC203


def native(description: str, extra: str = "") -> str:
    return f"toolcontract: 1\nname: weather_current\neffect: read\ndescription: {json.dumps(description)}\n{extra}"


def tc203(text: str, path: str = "descriptor.yaml"):
    return [(f.line, f.column, f.message) for f in lint(text, path, select=("TC203",)).findings]


def test_a_short_description_is_thin_and_the_message_says_how_short():
    [(line, column, message)] = tc203(native("Get details of a specific issue."))
    assert (line, column) == (4, 14)
    assert "only 32 characters (want at least 80)" in message
    assert "when to use it" in message and "what it returns" in message


def test_a_mid_length_description_without_guidance_is_thin():
    text = ("Get the title, body, state, labels, assignees and milestone of one issue in a GitHub repository, "
            "with its comment count.")
    assert 80 <= len(text) < 200
    [(line, column, message)] = tc203(native(text))
    assert (line, column) == (4, 14)
    assert f"({len(text)} characters) gives no usage guidance" in message
    assert '"Use it when ..."' in message and '"Returns ..."' in message


@pytest.mark.parametrize("guidance", [
    "Use it when the user names an issue number.",
    "Returns the title, body and labels.",
    "Do not use it for pull requests.",
    "The repository must be one the token can read.",
    "Results are paginated, at most 100 a page.",
    "Prefer search_issues instead when no number is known.",
    "Best for looking at one known issue.",
    "Don’t use it for pull requests.",
])
def test_a_mid_length_description_with_usage_guidance_is_not_thin(guidance):
    text = f"Get one issue of a GitHub repository, with its title and body. {guidance}"
    assert 80 <= len(text) < 200
    assert tc203(native(text)) == []


def test_two_hundred_characters_are_never_thin():
    text = ("Get the title, body, state, labels, assignees, milestone, reactions, linked pull requests, author, "
            "creation and closing dates of one issue in a GitHub repository, with its comment count and its type, too.")
    assert len(text) >= 200
    assert tc203(native(text)) == []
    assert tc203(native(text[:199])) != []


def test_the_description_built_from_purpose_and_when_to_use_counts_its_guidance():
    text = ("toolcontract: 1\nname: weather_current\neffect: read\npurpose: Report the current weather at one "
            "named place.\nwhen_to_use: The user asks about weather conditions right now.\n")
    assert tc203(text) == []
    [(line, _, message)] = tc203("toolcontract: 1\nname: weather_current\neffect: read\n"
                                 "purpose: Report the current weather at one named place.\n")
    assert line == 4 and "only 46 characters" in message


def test_naming_a_parameter_or_two_enum_values_explains_the_inputs():
    schema = ("input_schema:\n  type: object\n  properties:\n    issue_number: {type: integer}\n"
              "    state: {type: string, enum: [open, closed, all]}\n")
    text = "Update the state of an existing issue in a GitHub repository, by its issue_number and a new state."
    assert tc203(native(text, schema)) == []
    text = "Update the state of an existing issue in a GitHub repository to open or closed, with a reason."
    assert tc203(native(text, schema)) == []
    # one plain word that happens to be an enum value, or a property named as a prose word, is not enough
    text = "Update the state of an existing issue in a GitHub repository to a new one, with a state reason."
    assert [m for _, _, m in tc203(native(text, schema))][0].count("no usage guidance") == 1


# CJK: 60 characters are never thin, under 25 always; in between a CJK marker is needed


def test_short_cjk_text_is_thin_with_its_own_threshold():
    [(line, column, message)] = tc203(native("获取天气。"))
    assert (line, column) == (4, 14)
    assert "only 5 characters of CJK text (want at least 25)" in message


def test_cjk_text_between_the_thresholds_needs_a_cjk_marker():
    bare = "获取豆瓣实时热门榜单，提供当前热门的图书、电影、电视剧、综艺等作品信息和评分数据"
    assert 25 <= len(bare) < 60
    [(_, _, message)] = tc203(native(bare))
    assert "gives no usage guidance" in message
    assert tc203(native(bare + "，返回前五十条")) == []
    assert tc203(native("查询指定城市的当前天气。当用户询问现在的天气时使用此工具。")) == []


@pytest.mark.parametrize("text", [
    "指定した都市の現在の天気を取得します。ユーザーが今の天気を尋ねた場合に使います。",  # ja: 場合 (when)
    "지정한 도시의 현재 날씨를 조회합니다. 사용자가 지금 날씨를 물을 경우 사용하세요.",  # ko: 경우, 사용
])
def test_japanese_and_korean_markers(text):
    assert tc203(native(text)) == []


def test_sixty_cjk_characters_are_never_thin():
    text = "获取微博热搜榜，包含时事热点、社会现象、娱乐新闻、明星动态及网络热议话题的实时热门中文资讯和热度排名以及相关的讨论数量和链接"
    assert len(text) >= 60
    assert tc203(native(text)) == []


def test_mixed_cjk_and_latin_text_is_measured_by_its_share_of_each_limit():
    text = "获取 GitHub 仓库的 issue 列表，包括标题、状态、作者和标签，按更新时间排序"  # 26 CJK + 18 others
    assert tc203(native(text)) != []
    assert tc203(native(text + "。返回前三十条结果。")) == []


def test_other_languages_are_judged_by_length_alone():
    spanish = "Obtiene el clima actual de una ciudad con la temperatura, la humedad y la velocidad del viento."
    assert 80 <= len(spanish) < 200
    assert tc203(native(spanish)) == []
    [(_, _, message)] = tc203(native("Obtiene el clima actual de una ciudad."))
    assert "want at least 80" in message


# docstrings: the whole text counts, sections included, and a section is guidance


def test_a_docstring_counts_whole_and_its_sections_are_guidance():
    doc = "Get the current weather.\n\nArgs:\n    city: City name, as the user wrote it.\n    units: metric.\n"
    assert 80 <= len(doc.strip()) < 200
    assert tc203(native(doc)) == []
    numpy = "Get the current weather.\n\nParameters\n----------\ncity : str\n    City name, as the user wrote it.\n"
    assert tc203(native(numpy)) == []
    sphinx = "Get the current weather at one place.\n:param city: City name, as the user wrote it.\n"
    assert tc203(native(sphinx)) == []
    # the same words without a section header give no guidance
    plain = "Get the current weather at one place on Earth, for the city named by its caller, in a sentence."
    assert tc203(native(plain)) != []


def test_a_docstring_over_the_limit_with_sections_is_never_thin():
    doc = ("获取库街区上的角色档案信息。\n\nArgs:\n    character_name: 要查询的角色的中文名称。\n\n"
           "Returns:\n    包含角色档案信息的 Markdown 字符串，或者在找不到角色时的错误消息。\n")
    assert tc203(native(doc)) == []


def test_an_mcp_description_is_reported_at_its_own_line():
    text = ("tools:\n  - name: get_issue\n    inputSchema: {type: object}\n"
            "    description: Get details of a specific issue.\n")
    [(line, column, message)] = tc203(text, "tools.yaml")
    assert (line, column) == (4, 18) and "only 32 characters" in message


@pytest.mark.parametrize("extra", [
    "input_schema: [1, 2]\n",
    "input_schema: {properties: [a, b]}\n",
    "input_schema: {properties: {1: {enum: 3}, state: {enum: [null, 1, open]}, x: [], '': {}}}\n",
])
def test_tc203_never_crashes_on_odd_schemas(extra):
    text = "Update the state of an existing issue in a GitHub repository to a new one, with a state reason."
    lint(native(text, extra))


# ------------------------------------------------------------------------------------------ TC102


def tc102(name: str, effect: str = "read"):
    return [(f.line, f.column, f.message) for f in
            lint(f"toolcontract: 1\nname: {name}\neffect: {effect}\n", select=("TC102",)).findings]


@pytest.mark.parametrize("name,word", [
    ("do_everything", "everything"), ("delete_everything", "everything"), ("handle_all", "all"),
    ("process_stuff", "stuff"), ("manage_all_things", "all"), ("list_all", "all"), ("doEverything", "everything"),
    ("search-anything", "anything"), ("update_whatever", "whatever"),
])
def test_catch_all_names_are_vague(name, word):
    [(line, column, message)] = tc102(name)
    assert (line, column) == (2, 7)
    assert f"name {name!r} is a catch-all: {word!r} names no object" in message


@pytest.mark.parametrize("name", [
    "list_all_issues", "get_all_users", "delete_all_completed_todos", "mark_all_notifications_read",
    "list_all_airports", "delete", "search_and_replace", "any_of",
])
def test_names_with_an_object_stay_clean(name):
    assert tc102(name) == []


def test_generic_names_keep_their_message():
    [(_, _, message)] = tc102("process_data", "pure")
    assert message == "name 'process_data' names no object: say what it acts on (e.g. invoice_mark_paid)"


# ------------------------------------------------------------------------------------------ TC418


def mcp(name: str, description: str | None = None, annotations: str | None = None) -> str:
    text = f"tools:\n  - name: {name}\n    inputSchema: {{type: object}}\n"
    if description is not None:
        text += f"    description: {json.dumps(description)}\n"
    if annotations is not None:
        text += f"    annotations: {annotations}\n"
    return text


def tc418(text: str, path: str = "tools.yaml"):
    return [(f.line, f.column, f.message) for f in lint(text, path, select=("TC418",)).findings]


def test_a_read_name_without_annotations_is_reported_at_the_tool():
    [(line, column, message)] = tc418(mcp("get_weather", "Report the current weather in a city."))
    assert (line, column) == (2, 5)
    assert "the name 'get_weather' says 'get', a read, but there are no annotations" in message
    assert "set `readOnlyHint: true`" in message and "may ask before every call" in message


def test_null_annotations_count_as_none():
    [(line, _, message)] = tc418(mcp("list_issues", annotations="null"))
    assert line == 2 and "there are no annotations" in message


def test_annotations_without_the_hint_are_reported_at_annotations():
    [(line, column, message)] = tc418(mcp("search_notes", annotations="{title: Search notes}"))
    assert (line, column) == (4, 5)
    assert "the annotations have no readOnlyHint" in message


def test_a_hint_written_false_is_reported_at_the_hint():
    text = mcp("find_user", annotations="\n      readOnlyHint: false\n      openWorldHint: true")
    [(line, column, message)] = tc418(text)
    assert (line, column) == (5, 21)
    assert "the name 'find_user' says 'find', a read, but readOnlyHint is false" in message


@pytest.mark.parametrize("description,verb", [
    ("Fetches the current weather in a city.", "fetches"),
    ("Lists the open shipments of an account.", "lists"),
    ("This tool searches the knowledge base.", "searches"),
    ("Use this to query the sales warehouse.", "query"),
    ("Retrieving the latest exchange rates.", "retrieving"),
])
def test_the_description_first_verb_counts_when_the_name_has_none(description, verb):
    [(_, _, message)] = tc418(mcp("weather_report", description))
    assert f"the description's first sentence says {verb!r}, a read" in message


@pytest.mark.parametrize("name,description", [
    ("search_and_replace", "Search for text and replace all occurrences."),
    ("label_ensure", "Get or create a label in a repository."),
    ("get_page", "Fetch a web page and save it to the archive."),
    ("create_issue", "Get the issue template and open an issue."),
    ("weather_report", "Report the current weather in a city. It lists the forecast too."),
])
def test_a_write_verb_with_the_read_or_no_read_first_is_not_reported(name, description):
    assert tc418(mcp(name, description)) == []


def test_a_write_verb_right_after_the_read_is_its_object():
    assert tc418(mcp("get_release", "Get the latest release of a repository.")) != []
    assert tc418(mcp("list_commits", "List commits of a branch.")) != []


def test_read_only_true_and_odd_values_are_not_reported():
    assert tc418(mcp("get_weather", annotations="{readOnlyHint: true}")) == []
    assert tc418(mcp("get_weather", annotations="{readOnlyHint: 'yes'}")) == []  # TC002's
    assert tc418(mcp("get_weather", annotations="[readOnlyHint]")) == []


def test_only_mcp_tools_are_checked():
    assert tc418("toolcontract: 1\nname: get_weather\neffect: read\n") == []
    openai = json.dumps([{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}])
    assert tc418(openai, "tools.json") == []


MCP_JSON = json.dumps({"tools": [
    {"name": "get_session", "description": "Get the session of a user.", "inputSchema": {"type": "object"}},
]})


def _with_overlay(effect: str):
    overlay = f"toolcontract: 1\ntools:\n  get_session:\n    effect: {effect}\n"
    return lint_files([("tools.json", MCP_JSON.encode())], Selection(select=("TC418",)),
                      overlays={"tools.json": ("tools.contract.yaml", overlay.encode())}).findings


def test_an_overlay_that_says_the_tool_writes_silences_it():
    assert _with_overlay("reversible_write") == []
    assert _with_overlay("open_world") == []


def test_an_overlay_that_says_read_still_wants_the_hint():
    [finding] = _with_overlay("read")
    assert "there are no annotations" in finding.message


# ------------------------------------------------------------------------------------------ corpus

CORPUS = corpus_dir()
needs_corpus = pytest.mark.skipif(not (CORPUS / "mcp").is_dir(),
                                  reason=f"the shared third-party corpus is not at {CORPUS}")


def _lint_lists(lists: list[list], rules: tuple[str, ...]):
    files = [(f"list{i}.json", json.dumps({"tools": tools}).encode()) for i, tools in enumerate(lists)]
    return lint_files(files, Selection(select=rules))


def _counts(result, rule_id: str, fragment: str = "") -> int:
    return sum(1 for f in result.findings if f.rule == rule_id and fragment in f.message)


@needs_corpus
def test_corpus_github_head():
    head = json.loads((CORPUS / "mcp" / "github-mcp-server.tools.head.json").read_text("utf-8"))["tools"]
    result = _lint_lists([[e["tool"] for e in head]], ("TC203", "TC102", "TC418"))
    assert len(head) == 117
    # was 99 by sentence count; now the one-line "Get details of ..." tools and a few mid-length ones
    assert 55 <= _counts(result, "TC203") <= 85
    assert 50 <= _counts(result, "TC203", "characters (want at least 80)") <= 70
    assert _counts(result, "TC203", "no usage guidance") <= 15
    thin = {f.tool for f in result.findings if f.rule == "TC203"}
    assert {"get_label", "list_branches", "create_gist", "issue_read"} <= thin
    # these say when to use the tool, what it returns or what an input means
    assert not thin & {"get_me", "list_commits", "list_issues", "list_pull_requests", "search_code",
                       "create_pull_request_review", "delete_repository", "label_write"}
    assert _counts(result, "TC102", "catch-all") == 0
    assert _counts(result, "TC418") == 0  # every read tool has readOnlyHint: true


@needs_corpus
def test_corpus_github_history_has_no_read_tool_without_the_hint():
    history = json.loads((CORPUS / "mcp" / "github-mcp-server.tools.history.json").read_text("utf-8"))["tools"]
    result = _lint_lists([[e["tool"]] for e in history], ("TC418",))
    assert len(history) > 1000 and _counts(result, "TC418") == 0


@needs_corpus
def test_corpus_livemcpbench():
    servers = json.loads((CORPUS / "mcp" / "livemcpbench.tools.json").read_text("utf-8"))["servers"]
    lists = [sub["tools"] for server in servers for sub in server["tools"].values()]
    result = _lint_lists(lists, ("TC203", "TC102", "TC418"))
    tools = sum(map(len, lists))
    assert tools == 527
    assert 250 <= _counts(result, "TC203") <= 340  # was 409
    assert _counts(result, "TC102", "catch-all") == 0
    # the read tools of servers that write no annotations at all: every one a lookup
    hits = [f for f in result.findings if f.rule == "TC418"]
    assert 200 <= len(hits) <= 260
    assert all("there are no annotations" in f.message for f in hits)
    named = {f.tool for f in hits}
    assert {"get_current_time", "read_graph", "search_wikipedia", "fetch_html"} <= named
    assert not named & {"create_entities", "delete_entities", "write_note", "edit_file"}


@needs_corpus
def test_corpus_tau_bench_and_bfcl():
    tau = json.loads((CORPUS / "transcripts" / "tau-bench.tools.json").read_text("utf-8"))["tools"]
    files = [(f"tau_{d}.json", json.dumps([t["tool"] for t in tools]).encode()) for d, tools in tau.items()]
    result = lint_files(files, Selection(select=("TC203", "TC418")))
    assert 10 <= _counts(result, "TC203") <= 22  # was 22 of 30
    assert _counts(result, "TC418") == 0  # OpenAI tools have no hints to check
    thin = {f.tool for f in result.findings}
    assert "get_user_details" in thin and not thin & {"think", "find_user_id_by_email", "list_all_product_types"}

    functions = json.loads((CORPUS / "bfcl" / "functions_unique.json").read_text("utf-8"))
    functions = functions["functions"] if isinstance(functions, dict) else functions
    defs = [{"type": "function", "function": x.get("function", x)} for x in functions]
    result = lint_files([("bfcl.json", json.dumps(defs).encode())], Selection(select=("TC203",)))
    # was 3,456 of 3,526: BFCL's one-sentence descriptions stay mostly thin, its explained ones do not
    assert 2200 <= _counts(result, "TC203") <= 2900


# ------------------------------------------------------------------------------------------ robustness

_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=12),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                     max_leaves=8)
_WORDS = st.sampled_from(["get", "list_all", "and", "or", "create", "Use", "返回", "当", "时", "if", "e.g.", "Args:\n",
                          "`x`", "stuff", "This", "tool", "。", " ", "\n", "ä", "\u200b", "x_y", "perPage"])


@pytest.mark.long
@settings(max_examples=examples(300), deadline=None)
@given(name=st.one_of(_JSON, st.lists(_WORDS, max_size=5).map("_".join)),
       description=st.one_of(_JSON, st.lists(_WORDS, max_size=30).map(" ".join)),
       schema=_JSON, annotations=_JSON)
def test_the_three_rules_never_crash(name, description, schema, annotations):
    tool = {"name": name, "description": description, "inputSchema": schema, "annotations": annotations}
    lint_files([("tools.json", json.dumps({"tools": [tool]}).encode())],
               Selection(select=("TC203", "TC102", "TC418")))
    native_tool = {"toolcontract": 1, "name": name, "description": description, "input_schema": schema,
                   "effect": "read"}
    lint_files([("d.json", json.dumps(native_tool).encode())], Selection(select=("TC203", "TC102", "TC418")))
