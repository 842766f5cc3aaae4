"""Suggest stops for a destination (a stub the agent can call)."""
import json
import sys

print(json.dumps({"destination": sys.argv[1] if len(sys.argv) > 1 else "", "stops": []}))
