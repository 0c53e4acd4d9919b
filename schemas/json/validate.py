"""Validate pgcliff's JSON documents against their schemas, and OpenMetrics
text with prometheus_client's parser: the tests' one checker.

usage: validate.py SCHEMA_DIR KIND FILE...
KIND: a schema's name (bmf, benchmark-action, list, run, compare, history)
or openmetrics.  Exit 0 when every FILE is valid, 1 otherwise (each
error said), 2 on bad usage.
"""
import json
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


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schema_dir, kind, files = pathlib.Path(argv[1]), argv[2], argv[3:]
    ok = True
    for f in files:
        ok &= validate_openmetrics(f) if kind == "openmetrics" else validate_json(schema_dir, kind, f)
    return 0 if ok else 1


sys.exit(main(sys.argv))
