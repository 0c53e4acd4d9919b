"""Validate pgcliff's JSON documents against their schemas, OpenMetrics
text with prometheus_client's parser, and HdrHistogram interval logs with
a reader of their own: the tests' one checker.

usage: validate.py SCHEMA_DIR KIND FILE...
KIND: a schema's name (bmf, benchmark-action, list, run, compare, history),
openmetrics or hdr-log (which prints each interval's tag and count).  Exit
0 when every FILE is valid, 1 otherwise (each error said), 2 on bad usage.
"""
import base64
import json
import struct
import zlib
import pathlib
import sys


def validate_json(schema_dir, kind, path):
    # Debian 12's jsonschema (4.10): references between the files through
    # a RefResolver whose store holds them all by file name
    from jsonschema import Draft202012Validator, RefResolver

    schemas = {p.name: json.loads(p.read_text()) for p in schema_dir.glob("*.schema.json")}
    for s in schemas.values():
        Draft202012Validator.check_schema(s)
    schema = schemas[kind + ".schema.json"]
    resolver = RefResolver(base_uri=kind + ".schema.json", referrer=schema, store=schemas)
    validator = Draft202012Validator(schema, resolver=resolver)
    doc = json.loads(pathlib.Path(path).read_text())
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:10]:
        print(f"{path}: {'/'.join(map(str, e.path)) or '(root)'}: {e.message}")
    return not errors


def validate_openmetrics(path):
    from prometheus_client.openmetrics.parser import text_string_to_metric_families

    try:
        families = list(text_string_to_metric_families(pathlib.Path(path).read_text()))
    except Exception as e:  # the parser's errors are ValueErrors, mostly
        print(f"{path}: not OpenMetrics: {e}")
        return False
    if not families:
        print(f"{path}: no metric family")
        return False
    return True


def hdr_counts(b64):
    """An HdrHistogram V2 compressed histogram (as HdrHistogram's Java
    HistogramLogReader reads it): its significant digits and counts."""
    raw = base64.b64decode(b64, validate=True)
    cookie, length = struct.unpack(">iI", raw[:8])
    assert cookie & ~0xF0 == 0x1C849304, f"compression cookie {cookie:#x}"
    enc = zlib.decompress(raw[8 : 8 + length])
    cookie, plen, offset, digits, lowest, highest, ratio = struct.unpack(">iiiiqqd", enc[:40])
    assert cookie & ~0xF0 == 0x1C849303, f"encoding cookie {cookie:#x}"
    assert 0 <= digits <= 5 and lowest >= 1 and highest >= 2 * lowest, "header"
    payload, counts, i = enc[40 : 40 + plen], [], 0
    assert len(payload) == plen, "payload cut"
    while i < len(payload):
        z, shift = 0, 0
        for k in range(9):
            b = payload[i]
            i += 1
            if k == 8:
                z |= b << 56
                break
            z |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        v = (z >> 1) ^ -(z & 1)
        counts.extend([0] * -v if v < 0 else [v])
    return digits, counts


def validate_hdr_log(path):
    lines = pathlib.Path(path).read_text().split("\n")
    if not lines[0].startswith("#[Histogram log format version 1."):
        print(f"{path}: no log format line")
        return False
    legend = '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"'
    if legend not in lines:
        print(f"{path}: no legend line")
        return False
    ok = True
    for n, line in enumerate(lines[lines.index(legend) + 1 :], lines.index(legend) + 2):
        if not line or line.startswith("#"):
            continue
        tag = ""
        if line.startswith("Tag="):
            tag, line = line[4:].split(",", 1)
        try:
            start, length, top, b64 = line.split(",")
            float(start), float(length), float(top)
            digits, counts = hdr_counts(b64)
            print(f"{tag} {sum(counts)} digits {digits}")
        except Exception as e:
            print(f"{path}:{n}: not an interval line: {e!r}")
            ok = False
    return ok


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schema_dir, kind, files = pathlib.Path(argv[1]), argv[2], argv[3:]
    ok = True
    for f in files:
        if kind == "openmetrics":
            ok &= validate_openmetrics(f)
        elif kind == "hdr-log":
            ok &= validate_hdr_log(f)
        else:
            ok &= validate_json(schema_dir, kind, f)
    return 0 if ok else 1


sys.exit(main(sys.argv))
