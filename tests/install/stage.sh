#!/bin/sh
# stage.sh BUILD STAGE: `cmake --install BUILD --prefix STAGE` into an empty STAGE, the staged
# prefix that the other install tests use.
set -eu
BUILD=$1 STAGE=$2
rm -rf "$STAGE"
cmake --install "$BUILD" --prefix "$STAGE" >/dev/null
test -x "$STAGE/bin/syncscope"
