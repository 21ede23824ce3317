#!/bin/sh
# Runs one process of the service: api | worker | cli <command> [options]. Anything else is exec'd.
set -e
case "$1" in
  api)
    exec node dist/main.js
    ;;
  worker)
    exec node dist/worker.js
    ;;
  cli)
    shift
    exec node dist/cli.js "$@"
    ;;
  *)
    exec "$@"
    ;;
esac
