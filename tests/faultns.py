"""Run `companion serve` where its storage fails for real: on a small tmpfs, or in a read-only folder.

    unshare -rm python tests/faultns.py tmpfs SIZE_KB DIR -- serve arguments...
    unshare -rm python tests/faultns.py readonly DIR -- serve arguments...

Run in a private mount namespace (unshare), so nothing is mounted for anyone else. `tmpfs` mounts a tmpfs of
SIZE_KB at DIR; `readonly` binds DIR onto itself read-only. Then `companion serve` runs with the arguments given;
its output passes through. Commands on stdin, each answered on stdout by a line starting with "#":
    fill        fill the tmpfs to the last byte                  #full <free bytes>
    leave N     leave room for N more WAL frames of DB and no more  #left <free bytes>
    free        remove the filler                                  #freed <free bytes>
    stop        SIGTERM to serve (so does a SIGTERM to this helper)
The helper exits with serve's exit code.
"""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import threading

FRAME = 4096 + 24  # a WAL frame: its header and one page


def free_bytes(folder: str) -> int:
    disk = os.statvfs(folder)
    return disk.f_bavail * disk.f_frsize


def fill(folder: str, leave: int = 0) -> int:
    """Write a filler file until only `leave` bytes (a multiple of the block size) are free."""
    path = os.path.join(folder, "filler")
    with open(path, "ab") as filler:
        block = os.statvfs(folder).f_frsize
        while free_bytes(folder) > leave:
            try:
                filler.write(b"\0" * min(block, free_bytes(folder) - leave))
                filler.flush()
            except OSError:
                break
    return free_bytes(folder)


def room_for_frames(folder: str, db: str, frames: int) -> int:
    """The bytes the WAL of `db` needs to grow by `frames` frames, counted in whole blocks."""
    block = os.statvfs(folder).f_frsize
    wal = os.path.getsize(db + "-wal") if os.path.exists(db + "-wal") else 0
    return (math.ceil((wal + frames * FRAME) / block) - math.ceil(wal / block)) * block


def main() -> int:
    split = sys.argv.index("--")
    mode, rest, serve_args = sys.argv[1], sys.argv[2:split], sys.argv[split + 1:]
    if mode == "tmpfs":
        size_kb, folder = rest
        os.makedirs(folder, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k,mode=0700", "tmpfs", folder], check=True)
    else:
        (folder,) = rest
        subprocess.run(["mount", "--bind", folder, folder], check=True)
        subprocess.run(["mount", "-o", "remount,bind,ro", folder], check=True)
    db = serve_args[serve_args.index("--db") + 1] if "--db" in serve_args else ""
    serve = subprocess.Popen([sys.executable, "-m", "companion", "serve", *serve_args])

    def commands() -> None:
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] == "fill":
                print(f"#full {fill(folder)}", flush=True)
            elif words[0] == "leave":
                os.remove(os.path.join(folder, "filler")) if os.path.exists(os.path.join(folder, "filler")) else None
                print(f"#left {fill(folder, room_for_frames(folder, db, int(words[1])))}", flush=True)
            elif words[0] == "free":
                if os.path.exists(os.path.join(folder, "filler")):
                    os.remove(os.path.join(folder, "filler"))
                print(f"#freed {free_bytes(folder)}", flush=True)
            elif words[0] == "stop":
                serve.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, lambda *_: serve.send_signal(signal.SIGTERM))
    threading.Thread(target=commands, daemon=True).start()
    return serve.wait()


if __name__ == "__main__":
    sys.exit(main())
