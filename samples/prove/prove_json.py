"""prove_json.py: the JSON side of prove.sh (reads syncscope results, writes replay expectations).

  prove_json.py extra RESULT.json RULE KEY...  prints the values of the extra figures KEY... of
                                               the one finding of RULE, one per line
  prove_json.py expect RESULT.json STATUS NOTE  prints a tests/data .expect file for the
                                               findings of RESULT.json and exit status STATUS
Exit status: 0, or 1 with the reason on stderr.
"""
import json
import sys


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"prove: cannot read the syncscope result {path}: {e}")


def extra(path, rule, keys):
    result = load(path)
    findings = [f for f in result.get("findings", []) if f.get("ruleId") == rule]
    if len(findings) != 1:
        seen = sorted({f.get("ruleId", "?") for f in result.get("findings", [])})
        sys.exit(f"prove: {path}: expected one {rule} finding, found {len(findings)} "
                 f"(rules found: {', '.join(seen) or 'none'})")
    figures = findings[0].get("extra") or {}
    for key in keys:
        value = figures.get(key)
        if value is None or not str(value).isdigit():
            sys.exit(f"prove: {path}: the {rule} finding has no numeric extra '{key}' "
                     f"(it has: {', '.join(sorted(figures)) or 'none'})")
        print(value)


def expect(path, status, note):
    result = load(path)
    print(f"# {note}")
    print(f"exit {status}")
    for f in result.get("findings", []):
        file = f.get("file") or "-"
        count = (f.get("evidence") or {}).get("count", 0)
        print(f"{f.get('ruleId')} {file} {f.get('line', 0)} {count}")


def main(argv):
    if len(argv) >= 4 and argv[1] == "extra":
        extra(argv[2], argv[3], argv[4:])
    elif len(argv) == 5 and argv[1] == "expect":
        expect(argv[2], argv[3], argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
