#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Parse "schedctl stats --openmetrics" or "--prometheus" output with
prometheus_client's parsers (Debian's python3-prometheus-client), the
OpenMetrics one strict, and print one canonical line per sample:
FAMILY TYPE SAMPLE device=D,major=M,minor=N,scheduler=S VALUE.
Usage: parse-metrics.py openmetrics|prometheus FILE; exits 1 on a parse
error."""
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families as om_parse
from prometheus_client.parser import text_string_to_metric_families as prom_parse


def main():
    fmt, path = sys.argv[1], sys.argv[2]
    text = open(path, encoding="utf-8").read()
    parse = om_parse if fmt == "openmetrics" else prom_parse
    try:
        families = list(parse(text))
    except Exception as e:  # the parsers raise ValueError and friends
        print("parse error: %s" % e)
        return 1
    for fam in families:
        for s in fam.samples:
            labels = ",".join("%s=%s" % kv for kv in sorted(s.labels.items()))
            print("%s %s %s %s %d" % (fam.name, fam.type, s.name, labels, s.value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
