#!/usr/bin/env python3
"""A driver of hlocheck's external protocol (docs/external-protocol.md) for
tests: it "compiles" nothing and negates its one input, or misbehaves as its
--behaviour says: crash (SIGSEGV), hang, error, garbage (a reply that is not
JSON), wrong-shape (a result of another shape), compiler-crash (a compiler
of the driver's died: the reply's "crash" key; in oneshot mode, SIGSEGV)."""
import json
import os
import signal
import sys
import time

import numpy as np


class CompilerCrash(RuntimeError):
    pass


def run(request_path, behaviour):
    request = json.load(open(request_path))
    if behaviour == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if behaviour == "compiler-crash":
        raise CompilerCrash("fake-compile died of signal 11 (SIGSEGV)")
    if behaviour == "hang":
        time.sleep(3600)
    if behaviour == "error":
        raise RuntimeError("compile: this driver refuses every module")
    value = -np.load(request["inputs"][0]["file"])
    if behaviour == "wrong-shape":
        value = value.reshape(value.shape + (1,))
    np.save(request["results"][0]["file"], value)


def main():
    args = sys.argv[1:]
    behaviour = args[args.index("--behaviour") + 1]
    if "--worker" not in args:
        try:
            run(args[-1], behaviour)
        except CompilerCrash as e:
            print(e, file=sys.stderr)
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGSEGV)
        except RuntimeError as e:
            print(e, file=sys.stderr)
            return 1
        return 0
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    for line in sys.stdin:
        if behaviour == "garbage":
            replies.write("this is not json\n")
            replies.flush()
            continue
        try:
            run(json.loads(line)["request"], behaviour)
            replies.write('{"ok": true}\n')
        except CompilerCrash as e:
            replies.write(json.dumps({"ok": False, "crash": str(e), "error": "stack..."}) + "\n")
        except RuntimeError as e:
            replies.write(json.dumps({"ok": False, "error": str(e)}) + "\n")
        replies.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
