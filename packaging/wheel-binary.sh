#!/usr/bin/env bash
# Copies the grader binary out of a wheel (its `*.data/scripts/grader`)
# to OUT, executable, so the npm tarballs carry the very binary the wheel
# does. Prints OUT.
#
# Usage: packaging/wheel-binary.sh WHEEL OUT
set -euo pipefail
wheel=${1:?usage: packaging/wheel-binary.sh WHEEL OUT}
out=${2:?usage: packaging/wheel-binary.sh WHEEL OUT}
python3 - "$wheel" "$out" <<'PY'
import sys
import zipfile

wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as archive:
    names = [n for n in archive.namelist() if n.endswith(".data/scripts/grader")]
    if len(names) != 1:
        sys.exit(f"wheel-binary: {wheel} holds {len(names)} grader binaries, not one")
    with archive.open(names[0]) as source, open(out, "wb") as target:
        target.write(source.read())
PY
chmod 755 "$out"
echo "$out"
