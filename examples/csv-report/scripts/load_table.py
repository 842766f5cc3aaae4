"""load table step of the csv-report example skill. Reads JSON on stdin, writes JSON on stdout."""
import json
import sys


def main() -> None:
    state = json.load(sys.stdin)
    json.dump(state, sys.stdout)


if __name__ == "__main__":
    main()
