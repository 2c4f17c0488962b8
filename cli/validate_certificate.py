#!/usr/bin/env python3
"""Validates certificate.json files against cli/certificate.schema.json (JSON Schema 2020-12,
through the jsonschema package: Debian's python3-jsonschema, which ci/setup.sh installs).

usage: validate_certificate.py [SCHEMA] CERTIFICATE...
SCHEMA (a file named *.schema.json) defaults to certificate.schema.json beside this script, as
an install puts them (PREFIX/share/cellcheck/).
Prints one line per certificate and each violation with its place; exits 0 when every
certificate is valid, 1 when one is not, 2 when the schema or a file cannot be read."""
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("validate_certificate: the jsonschema module is missing (Debian: python3-jsonschema, "
          "installed by ci/setup.sh)", file=sys.stderr)
    sys.exit(2)


def main(argv):
    if len(argv) < 2 or (argv[1].endswith(".schema.json") and len(argv) < 3):
        print(__doc__, file=sys.stderr)
        return 2
    if not argv[1].endswith(".schema.json"):
        beside = os.path.join(os.path.dirname(os.path.abspath(__file__)), "certificate.schema.json")
        argv = [argv[0], beside] + argv[1:]
    try:
        with open(argv[1], encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print(f"validate_certificate: the schema {argv[1]}: {e}", file=sys.stderr)
        return 2
    validator = jsonschema.Draft202012Validator(schema)
    status = 0
    for path in argv[2:]:
        try:
            with open(path, encoding="utf-8") as f:
                certificate = json.load(f)
        except (OSError, ValueError) as e:
            print(f"INVALID {path}: not readable JSON: {e}")
            status = 1
            continue
        errors = sorted(validator.iter_errors(certificate), key=lambda e: list(e.absolute_path))
        if not errors:
            print(f"VALID {path}")
            continue
        status = 1
        print(f"INVALID {path}: {len(errors)} violations")
        for e in errors:
            place = "/".join(str(p) for p in e.absolute_path) or "(top)"
            print(f"  {place}: {e.message}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
