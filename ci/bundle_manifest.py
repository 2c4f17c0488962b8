#!/usr/bin/env python3
"""Lays the tests of a GPU bundle out as `bazel test` runs them, from the BUILD files alone.

Reads `bazel query --output=xml` of the tests, copies every file a test's `data` names (source
files at their workspace path, built binaries and libraries into bin/ with a link at their
workspace path, as in a test's runfiles), expands each `args` entry's $(location)-style
references to those paths, and writes DIR/tests.tsv, one line a test:

    NAME <TAB> LABEL <TAB> SHARDS <TAB> TIMEOUT_S <TAB> TAGS <TAB> PROGRAM [<TAB> ARG ...]

(TAGS: the test's tags joined by commas, or '-'),

which the bundle's run.sh reads. Refuses (exit 1, naming the test) a test whose program, an
argument's file or a data file would be missing from the bundle, so no test starts without
what Bazel gives it.

A test tagged with a --leave-out tag (a host tool the GPU runner lacks: needs-slurm, say) stays
out of the bundle, named with the tag on the way.

    bundle_manifest.py --query XML --bin BAZEL_BIN --out DIR [--leave-out TAG ...]
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

# Bazel's default timeout for each test size (seconds).
TIMEOUT_OF_SIZE = {"small": 60, "medium": 300, "large": 900, "enormous": 3600}
TIMEOUT_OF_NAME = {"short": 60, "moderate": 300, "long": 900, "eternal": 3600}
REFERENCE = re.compile(r"\$\((location|locations|rootpath|rootpaths|execpath|execpaths) ([^)]+)\)")


def absolute(label, package):
    """//pkg:name for a label written relative to PACKAGE (':x', 'x', 'dir/x')."""
    if label.startswith("//"):
        return label if ":" in label else label + ":" + label.rsplit("/", 1)[-1]
    if label.startswith("@"):
        raise ValueError(f"external label {label} cannot travel in a bundle")
    return f"//{package}:{label.lstrip(':')}"


def workspace_path(label):
    package, name = label[2:].split(":", 1)
    return os.path.join(package, name) if package else name


class Bundle:
    def __init__(self, out, bazel_bin):
        self.out, self.bazel_bin = out, bazel_bin
        self.rules = {}  # label -> (rule class, element), for the labels queried so far
        self.files = {}  # label -> the bundle paths it stands for

    def query(self, labels):
        labels = [l for l in labels if l not in self.rules]
        if not labels:
            return
        text = subprocess.run(
            ["bazel", "query", "--output=xml", "set(" + " ".join(labels) + ")"],
            check=True, capture_output=True, text=True).stdout
        for el in ET.fromstring(text):
            name = el.get("name")
            if el.tag == "rule":
                self.rules[name] = (el.get("class"), el)
            elif el.tag in ("source-file", "generated-file"):
                self.rules[name] = (el.tag, el)

    def copy(self, src, dst):
        target = os.path.join(self.out, dst)
        if os.path.lexists(target):
            return
        os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
        shutil.copy2(src, target)

    def link(self, path, to):
        target = os.path.join(self.out, path)
        if os.path.lexists(target):
            return
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.symlink(os.path.relpath(os.path.join(self.out, to), os.path.dirname(target)), target)

    def resolve(self, label):
        """The bundle paths of LABEL, copying what is not there yet."""
        if label in self.files:
            return self.files[label]
        self.query([label])
        kind, el = self.rules[label]
        path = workspace_path(label)
        if kind == "source-file":
            self.copy(path, path)
            paths = [path]
        elif kind == "generated-file":
            self.copy(os.path.join(self.bazel_bin, path), path)
            paths = [path]
        elif kind in ("filegroup", "alias"):
            node = el.find("list[@name='srcs']" if kind == "filegroup" else "label[@name='actual']")
            inner = [] if node is None else [n.get("value") for n in node.iter("label")]
            self.query(inner)
            paths = [p for l in inner for p in self.resolve(l)]
        elif kind in ("cc_binary", "cc_test", "sh_binary"):
            built = os.path.join(self.bazel_bin, path)
            base = os.path.basename(path)
            if not os.path.isfile(built):
                raise FileNotFoundError(f"{label} is not built ({built})")
            self.copy(built, os.path.join("bin", base))
            self.link(path, os.path.join("bin", base))
            paths = [os.path.join("bin", base)]
        else:
            raise ValueError(f"{label}: a {kind} cannot be laid out in a bundle")
        self.files[label] = paths
        return paths


def attr_list(el, name):
    node = el.find(f"list[@name='{name}']")
    return [] if node is None else [c.get("value") for c in node]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--query", required=True, help="bazel query --output=xml of the tests")
    ap.add_argument("--bin", required=True, help="bazel info bazel-bin")
    ap.add_argument("--out", required=True, help="the bundle directory")
    ap.add_argument("--leave-out", action="append", default=[],
                    help="a tag whose tests stay out of the bundle")
    a = ap.parse_args()
    bundle = Bundle(a.out, a.bin)
    lines, problems, names = [], [], {}
    for el in ET.parse(a.query).getroot().findall("rule"):
        kind, label = el.get("class"), el.get("name")
        if kind not in ("cc_test", "sh_test"):
            continue
        package, name = label[2:].split(":", 1)
        left_out = sorted(set(attr_list(el, "tags")) & set(a.leave_out))
        if left_out:
            print(f"bundle_manifest: {label} left out of the bundle ({', '.join(left_out)})")
            continue
        if name in names:
            problems.append(f"{label} and {names[name]} share the name {name} in the bundle")
            continue
        names[name] = label
        try:
            data = [absolute(l, package) for l in attr_list(el, "data")]
            bundle.query(data)
            for l in data:
                bundle.resolve(l)
            if kind == "cc_test":
                program = bundle.resolve(label)[0]
            else:
                srcs = [absolute(l, package) for l in attr_list(el, "srcs")]
                program = bundle.resolve(srcs[0])[0]

            def expand(match, package=package):
                paths = bundle.resolve(absolute(match.group(2).strip(), package))
                if not match.group(1).endswith("s") and len(paths) != 1:
                    raise ValueError(f"$({match.group(1)} {match.group(2)}) names "
                                     f"{len(paths)} files")
                return " ".join(paths)

            # As Bazel does: references expanded, then each entry split as a shell would.
            args = []
            for arg in attr_list(el, "args"):
                expanded = REFERENCE.sub(expand, arg)
                if "$(" in expanded:
                    raise ValueError(f"argument {arg!r} has a reference the bundle cannot expand")
                args.extend(shlex.split(expanded))
        except (ValueError, FileNotFoundError, KeyError, IndexError,
                subprocess.CalledProcessError) as e:
            problems.append(f"{label}: {e}")
            continue
        shards = el.find("int[@name='shard_count']")
        shards = int(shards.get("value")) if shards is not None else 0
        size = el.find("string[@name='size']")
        timeout = el.find("string[@name='timeout']")
        seconds = TIMEOUT_OF_SIZE[size.get("value") if size is not None else "medium"]
        if timeout is not None and timeout.get("value") in TIMEOUT_OF_NAME:
            seconds = TIMEOUT_OF_NAME[timeout.get("value")]
        if not os.access(os.path.join(a.out, program), os.X_OK):
            problems.append(f"{label}: its program {program} is missing from the bundle")
        if any("\t" in x or "\n" in x for x in args):
            problems.append(f"{label}: an argument holds a tab or a newline")
        tags = ",".join(attr_list(el, "tags")) or "-"
        lines.append("\t".join([name, label, str(max(shards, 1)), str(seconds), tags, program]
                               + args))
    if problems:
        for p in problems:
            print(f"bundle_manifest: {p}", file=sys.stderr)
        return 1
    with open(os.path.join(a.out, "tests.tsv"), "w") as f:
        f.write("".join(line + "\n" for line in lines))
    print(f"bundle_manifest: {len(lines)} tests in {a.out}/tests.tsv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
