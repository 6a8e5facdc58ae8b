#!/bin/sh
# Make sure the Debian packages PETSc-ELLG builds against are installed: PETSc (petsc-dev, which
# brings Open MPI) and python3 for PETSc's test harness. As root, installs what is missing;
# otherwise prints the command to run and fails. With Debian's PETSc, petsc4py (python3-petsc4py,
# for make check's petsc4py test) is installed too as root where apt has it, and is not required.
missing=
[ -f "${PETSC_DIR:-/usr/lib/petsc}/lib/petsc/conf/petscvariables" ] || missing="$missing petsc-dev"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
optional=
case "${PETSC_DIR:-/usr/lib/petsc}" in
  /usr/lib/petsc | /usr/lib/petsc/)
    [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import petsc4py' >/dev/null 2>&1 || optional=python3-petsc4py ;;
esac
root=no
[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && root=yes
export DEBIAN_FRONTEND=noninteractive
if [ $root = yes ] && [ -n "$missing" ]; then
  echo "Installing missing Debian packages:$missing"
  apt-get update -q && apt-get install -y -q $missing || { echo "apt-get failed to install:$missing" >&2; exit 1; }
  missing=
fi
if [ $root = yes ] && [ -n "$optional" ]; then
  echo "Installing $optional (for make check's petsc4py test)"
  { apt-get install -y -q "$optional" || { apt-get update -q && apt-get install -y -q "$optional"; }; } >/dev/null 2>&1 ||
    echo "apt-get could not install $optional: its test is skipped" >&2
fi
[ -z "$missing" ] && exit 0
echo "PETSc-ELLG needs Debian packages that are not installed. Run as root:" >&2
echo "    apt-get update && apt-get install -y$missing" >&2
exit 1
