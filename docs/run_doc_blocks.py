#!/usr/bin/env python3
"""Runs the shell blocks of Markdown pages against a built cellcheck.

Every fenced block whose language is a shell (sh, bash, shell) must carry a mark in its info
string, so that no command on a page is left unchecked by accident:
  ```sh run            run here; the block must exit 0
  ```sh run exit=4     run here; the block must exit 4
  ```sh skip=REASON    not run here, REASON one of SKIP_REASONS
A page's `run` blocks run in order with bash -e -o pipefail, in a scratch directory of that page
(so a block may use the files an earlier one wrote) whose golden/ is the catalogue given, with
`cellcheck` on PATH as the tool given. Prints a line for each block and
"doc commands: N run, N skipped, N failed"; exits 1 when a run block fails, a shell block is
unmarked or badly marked, or no block ran at all.
"""
import argparse
import os
import re
import subprocess
import sys
import time

SHELLS = {"sh", "bash", "shell"}
# Why a block cannot run in a test on a CPU-only CI machine.
SKIP_REASONS = {
    "gpu": "needs a GPU",
    "amx": "needs AMX",
    "slurm": "needs a Slurm cluster",
    "network": "needs the network",
    "bazel": "runs Bazel, which a Bazel test cannot",
    "install": "needs an installed cellcheck and a plugin built against it",
    "long": "takes minutes or more",
    "timing": "measures this machine's speed",
}
FENCE = re.compile(r"^(\s*)(`{3,})(.*)$")


class Block:
    def __init__(self, path, line, lang, marks, text):
        self.path, self.line, self.lang, self.marks, self.text = path, line, lang, marks, text

    def where(self):
        return "%s:%d" % (self.path, self.line)


def read_blocks(path):
    """The fenced blocks of a page, each with its 1-based opening line; fences may be indented
    (in list items), and the block's lines lose that indentation."""
    blocks, errors = [], []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, ticks, info = m.group(1), m.group(2), m.group(3).strip()
        words = info.split()
        lang = words[0] if words else ""
        body, j = [], i + 1
        while j < len(lines):
            close = FENCE.match(lines[j])
            if close and close.group(2).startswith(ticks) and not close.group(3).strip():
                break
            line = lines[j]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            j += 1
        if j == len(lines):
            errors.append("%s:%d: a fence that is never closed" % (path, i + 1))
        blocks.append(Block(path, i + 1, lang, words[1:], "\n".join(body) + "\n"))
        i = j + 1
    return blocks, errors


def plan(block):
    """('run', exit status wanted), ('skip', reason) or ('error', message) for a shell block."""
    run, want, skip = False, 0, None
    for mark in block.marks:
        if mark == "run":
            run = True
        elif mark.startswith("exit=") and mark[5:].isdigit():
            want = int(mark[5:])
        elif mark.startswith("skip="):
            skip = mark[5:]
        else:
            return ("error", "unknown mark %r" % mark)
    if run and skip is None:
        return ("run", want)
    if skip is not None and not run:
        if skip not in SKIP_REASONS:
            return ("error", "skip=%s: the reasons are %s" % (skip, ", ".join(sorted(SKIP_REASONS))))
        return ("skip", skip)
    return ("error", "a shell block needs `run` or `skip=REASON` after its language")


def indented(text, limit=30):
    lines = text.rstrip("\n").split("\n")
    if len(lines) > limit:
        lines = ["... (%d lines before)" % (len(lines) - limit)] + lines[-limit:]
    return "".join("    | %s\n" % line for line in lines if lines != [""])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True, help="the built cellcheck")
    ap.add_argument("--golden", required=True, help="the golden/ directory the tool reads")
    ap.add_argument("--scratch", required=True, help="where each page's scratch directory goes")
    ap.add_argument("--timeout", type=float, default=300, help="seconds a block may run")
    ap.add_argument("pages", nargs="+")
    args = ap.parse_args()

    scratch = os.path.abspath(args.scratch)
    bindir = os.path.join(scratch, "bin")
    os.makedirs(bindir, exist_ok=True)
    link = os.path.join(bindir, "cellcheck")
    if not os.path.lexists(link):
        os.symlink(os.path.abspath(args.tool), link)
    golden = os.path.abspath(args.golden)
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))

    ran = skipped = failed = 0
    for page in (os.path.normpath(p) for p in args.pages):
        blocks, errors = read_blocks(page)
        for e in errors:
            print("FAIL %s" % e)
            failed += 1
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", page)
        workdir = os.path.join(scratch, "pages", name)
        os.makedirs(workdir, exist_ok=True)
        if not os.path.lexists(os.path.join(workdir, "golden")):
            os.symlink(golden, os.path.join(workdir, "golden"))
        for block in blocks:
            if block.lang not in SHELLS:
                continue
            kind, detail = plan(block)
            if kind == "error":
                print("FAIL %s: %s" % (block.where(), detail))
                failed += 1
                continue
            if kind == "skip":
                print("SKIP %s (%s: %s)" % (block.where(), detail, SKIP_REASONS[detail]))
                skipped += 1
                continue
            start = time.monotonic()
            try:
                proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block.text],
                                      cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      timeout=args.timeout)
                status, output = proc.returncode, proc.stdout.decode("utf-8", "replace")
            except subprocess.TimeoutExpired as e:
                status = "timed out after %.0f s" % args.timeout
                output = (e.stdout or b"").decode("utf-8", "replace")
            seconds = time.monotonic() - start
            ran += 1
            if status == detail:
                print("RUN  %s: exit %d as wanted (%.1f s)" % (block.where(), status, seconds))
            else:
                failed += 1
                print("FAIL %s: exit %s, wanted %d (%.1f s)" % (block.where(), status, detail,
                                                                  seconds))
                print(indented(block.text), end="")
                print("  output:")
                print(indented(output), end="")
    if ran == 0:
        print("FAIL no block ran: none is marked `run` in %s" % " ".join(args.pages))
        failed += 1
    print("doc commands: %d run, %d skipped, %d failed" % (ran, skipped, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
