#!/usr/bin/env python3
"""Lists every public symbol in the given symbol graphs that has no doc comment of its own; exits 1 if any.

Symbols the compiler synthesizes (memberwise inits, Equatable/Hashable conformances, enum raw values) and symbols a
type only inherits from a protocol's extension are skipped: their documentation lives where they are written.
"""
import json, sys, glob, os

missing = []
for path in sys.argv[1:]:
    graph = json.load(open(path))
    module = graph["module"]["name"]
    for symbol in graph["symbols"]:
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        if symbol.get("docComment"):
            continue
        location = symbol.get("location")
        if location is None:
            continue  # synthesized or inherited: not written in this module's sources
        if not location["uri"].startswith("file://" + os.getcwd()):
            continue  # declared in another module (an extension of a standard type's inherited member)
        name = ".".join(symbol["pathComponents"])
        line = location["position"]["line"] + 1
        file = location["uri"].replace("file://" + os.getcwd() + "/", "")
        missing.append(f"{file}:{line}: {module}.{name} ({symbol['kind']['displayName']}) has no doc comment")

for entry in sorted(set(missing)):
    print(entry)
print(f"{len(set(missing))} undocumented public symbols", file=sys.stderr)
sys.exit(1 if missing else 0)
