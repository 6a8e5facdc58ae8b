#!/bin/sh
# Make sure the Debian packages PETSc-ELLG builds against are installed: PETSc (petsc-dev, which
# brings Open MPI) and python3 for PETSc's test harness. As root, installs what is missing;
# otherwise prints the command to run and fails.
missing=
[ -f "${PETSC_DIR:-/usr/lib/petsc}/lib/petsc/conf/petscvariables" ] || missing="$missing petsc-dev"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing missing Debian packages:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q && apt-get install -y -q $missing && exit 0
  echo "apt-get failed to install:$missing" >&2
  exit 1
fi
echo "PETSc-ELLG needs Debian packages that are not installed. Run as root:" >&2
echo "    apt-get update && apt-get install -y$missing" >&2
exit 1
