"""Example texts shared by the TC0xx rules' examples."""

# a clean native descriptor, which the examples extend
GOOD = """\
toolcontract: 1
name: weather_current
effect: read
"""
