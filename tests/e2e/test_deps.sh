# `make run` installs only what the quickstart needs, `make check` the test stack: the package
# list of each step is read from a dry run (HPRUN_DEPS_LIST=1), the `run` one from the very command
# line `make -n run` shows, so that pointing `make run` at the full list again fails here.
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# The lists are the defaults' whatever switches the caller's make check runs with
# (HPRUN_NO_DEPS=1 make check would otherwise list nothing).
unset HPRUN_NO_DEPS HPRUN_NO_HIPCC HPRUN_NO_FUZZ HPRUN_NO_BROWSER HPRUN_NO_CLUSTER
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" BUILD="$BUILD" "$@"; }

# The deps step of `make run`, as make would run it (the first recipe line naming deps.sh).
mk -n run >"$T/make-n" 2>&1 || { cat "$T/make-n"; fail "make -n run"; }
step=$(grep -m1 "scripts/deps.sh" "$T/make-n") || { cat "$T/make-n"; fail "make run has no deps.sh step"; }
(cd "$ROOT" && HPRUN_DEPS_LIST=1 sh -c "$step") >"$T/run.pkgs" || fail "the run step's dry run: $step"
(cd "$ROOT" && HPRUN_DEPS_LIST=1 sh scripts/deps.sh check) >"$T/check.pkgs" || fail "the check step's dry run"
[ -s "$T/run.pkgs" ] || fail "make run's dry run listed nothing"

# None of the test stack: a browser, Slurm, munge, MPI, clang, hipcc, cmocka, tmux.
for bad in chromium slurm munge mpi clang hipcc cmocka tmux; do
  if grep -i "$bad" "$T/run.pkgs" >"$T/hit"; then
    fail "make run would install $(tr '\n' ' ' <"$T/hit")(a test package, '$bad')"
  fi
done
# What the quickstart does need: the compiler and libraries, and its two tools.
for need in gcc libc6-dev make pkg-config libyaml-dev libuv1-dev zlib1g-dev valgrind strace; do
  grep -qx "$need" "$T/run.pkgs" || fail "make run would not install $need"
done
ok "make run's deps step installs $(wc -l <"$T/run.pkgs") packages: $(tr '\n' ' ' <"$T/run.pkgs")"

# `make check` still gets the whole stack, and every package of `run`.
for need in $(cat "$T/run.pkgs") libcmocka-dev chromium slurm-wlm munge openmpi-bin clang hipcc; do
  grep -qx "$need" "$T/check.pkgs" || fail "make check would not install $need"
done
# The switches drop their packages from `check`.
(cd "$ROOT" && HPRUN_DEPS_LIST=1 HPRUN_NO_BROWSER=1 HPRUN_NO_CLUSTER=1 HPRUN_NO_HIPCC=1 \
  HPRUN_NO_FUZZ=1 sh scripts/deps.sh check) >"$T/lean.pkgs"
for bad in chromium slurm-wlm munge openmpi-bin hipcc clang; do
  ! grep -qx "$bad" "$T/lean.pkgs" || fail "a HPRUN_NO_* switch left $bad in"
done
expect_exit 0 env HPRUN_NO_DEPS=1 HPRUN_DEPS_LIST=1 sh "$ROOT/scripts/deps.sh" check
[ ! -s "$T/out" ] || fail "HPRUN_NO_DEPS=1 still listed packages"
expect_exit 2 sh "$ROOT/scripts/deps.sh" everything
ok "make check's step has the test stack ($(wc -l <"$T/check.pkgs") packages); the switches remove theirs"
