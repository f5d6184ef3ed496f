# project_case.sh: the start the multi-unit tests of tests/cli share, sourced with the test's
# own arguments (SYNCSCOPE DATA_DIR) and CASE set to its folder under DATA_DIR: SS, DATA and HERE
# set, a fresh working folder $WORK (removed on exit) made the current one, assert.sh sourced
# with fail=0, and the case's sources copied into src/ beside an empty build/.
set -u
SS=$(realpath "$1") DATA=$(realpath "$2")/$CASE HERE=$(dirname "$(realpath "$0")")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
fail=0
. "$HERE/assert.sh"
mkdir src build
cp "$DATA"/* src/
