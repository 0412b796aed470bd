"""Example texts shared by the TC2xx rules' examples."""

# a descriptor that documents itself fully: clean for every TC2xx rule
FULL = """\
toolcontract: 1
name: weather_current
version: 1.0.0
purpose: Report the current weather at one named place.
when_to_use: The user asks about weather conditions right now.
non_goals: [Does not forecast future days.]
effect: read
"""
