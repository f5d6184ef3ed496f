#!/bin/sh
# offline-prefix.sh: for a machine without apt (e.g. a GPU box with only the CUDA toolkit):
# unpacks the .deb files in DEB_DIR into PREFIX and prints the environment that lets CMake
# find them. Usage: eval "$(scripts/offline-prefix.sh DEB_DIR PREFIX)"
# Fetch the .deb files elsewhere with: apt-get download libcjson1 libcjson-dev libyaml-0-2
#   libyaml-dev check libsubunit0 libsubunit-dev libdw1 libdw-dev libelf1 libelf-dev pkgconf
#   pkgconf-bin libpkgconf3 zlib1g-dev liblzma-dev libzstd-dev libbz2-dev
set -eu
DEB_DIR=${1:?usage: offline-prefix.sh DEB_DIR PREFIX}
PREFIX=${2:?usage: offline-prefix.sh DEB_DIR PREFIX}
mkdir -p "$PREFIX"
for deb in "$DEB_DIR"/*.deb; do
    dpkg-deb -x "$deb" "$PREFIX" 2>/dev/null || dpkg -x "$deb" "$PREFIX"
done
LIBDIR="$PREFIX/usr/lib/x86_64-linux-gnu"
# Debian's pkgconf binary is a symlink name; call it through its own library path.
cat >"$PREFIX/pkg-config" <<WRAP
#!/bin/sh
LD_LIBRARY_PATH="$LIBDIR\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" \\
PKG_CONFIG_SYSROOT_DIR="$PREFIX" PKG_CONFIG_LIBDIR="$LIBDIR/pkgconfig:$PREFIX/usr/share/pkgconfig" \\
exec "$PREFIX/usr/bin/pkgconf" "\$@"
WRAP
chmod +x "$PREFIX/pkg-config"
echo "export PKG_CONFIG='$PREFIX/pkg-config'"
echo "export CMAKE_PREFIX_PATH='$PREFIX/usr'"
