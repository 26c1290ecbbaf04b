#!/bin/sh
# Stands for a build of autoprof-opt whose contraction-tile writes something
# else: the real one ($AUTOPROF_OPT_REAL), with a comment added to what it
# prints for a chain with contraction-tile.
case "$*" in
  *contraction-tile*) "$AUTOPROF_OPT_REAL" "$@" && echo "// other" ;;
  *) exec "$AUTOPROF_OPT_REAL" "$@" ;;
esac
