#!/bin/bash
# The tests of conf/memcheck-mpiexec (make memcheck's mpiexec), run by `make check-scripts` without a GPU: a stand-in
# for mpiexec (runs its program once) and one for compute-sanitizer (records its options, writes the report a clean or
# a failing run would, runs the program) show where the wrapper puts the tool, that the program's arguments, output
# and exit status come through, that an error the tool reports fails the run, and that a command line without a
# program is refused. Prints a suite line and a counts line, as the other suites of make check do.
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0 failed=()

cat > "$work/mpiexec" <<'EOF'
#!/bin/bash
# runs the program once: drops mpiexec's options (-n N, --flag)
while [ $# -gt 0 ]; do case $1 in -n) shift 2 ;; --*) shift ;; *) break ;; esac; done
exec "$@"
EOF
cat > "$work/compute-sanitizer" <<'EOF'
#!/bin/bash
# records its options, writes its report (FAKE_ERRORS errors) to --log-file (%p: the process id), runs the program
log=/dev/null errors=${FAKE_ERRORS:-0} code=0 opts=()
while [ $# -gt 0 ] && [ "${1#--}" != "$1" ]; do
  case $1 in --log-file) log=${2//%p/$$} ;; --error-exitcode) code=$2 ;; esac
  opts+=("$1" "$2")
  shift 2
done
echo "${opts[*]}" > "$FAKE_OPTS"
"$@"
rc=$?
echo "========= ERROR SUMMARY: $errors errors" > "$log"
[ "$errors" -gt 0 ] && [ "$code" -ne 0 ] && exit "$code"
exit $rc
EOF
printf '#!/bin/sh\necho "args: $*"\n' > "$work/program"
chmod +x "$work/mpiexec" "$work/compute-sanitizer" "$work/program"
export COMPUTE_SANITIZER="$work/compute-sanitizer" MEMCHECK_LOGDIR="$work/logs" FAKE_OPTS="$work/opts"
mkdir -p "$MEMCHECK_LOGDIR"

check() { # check <name> <condition...>
  local name=$1
  shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$name"); fi
}

out=$("$here/memcheck-mpiexec" "$work/mpiexec" --oversubscribe -n 2 "$work/program" -a 1 -b "two words" 2> "$work/err")
rc=$?
check "program runs with its arguments" test "$out" = "args: -a 1 -b two words" -a $rc -eq 0
check "tool runs memcheck with a full leak check" grep -q -- '--tool memcheck --leak-check full' "$work/opts"
check "tool reports to MEMCHECK_LOGDIR" grep -q 'ERROR SUMMARY: 0 errors' "$MEMCHECK_LOGDIR"/memcheck.*.log

"$here/memcheck-mpiexec" "$work/mpiexec" -n 1 /bin/false 2> "$work/err"
check "program's exit status comes through" test $? -eq 1

FAKE_ERRORS=3 "$here/memcheck-mpiexec" "$work/mpiexec" -n 1 "$work/program" > /dev/null 2> "$work/err"
check "an error the tool reports fails the run" test $? -eq 97

"$here/memcheck-mpiexec" "$work/mpiexec" -n 1 no-such-program 2> "$work/err"
rc=$?
check "a command line without a program is refused" test $rc -eq 2 -a -s "$work/err"

printf '%-26s %4d ok, %d not ok, %d skipped\n' 'memcheck wrapper:' "$pass" "$fail" 0
for f in "${failed[@]}"; do printf '    not ok: %s\n' "$f"; done
printf 'counts %d %d %d\n' "$pass" "$fail" 0
