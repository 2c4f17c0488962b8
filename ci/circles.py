#!/usr/bin/env python3
"""Finds circles between the C, C++ and CUDA files of a tree, from their includes and calls.

usage: circles.py [ROOT]   (ROOT: the repository, this script's parent folder if left out)

A unit is a source and its header: the files of one folder that share a name up to the extension
(oracle/gridio.c and oracle/gridio.h are the unit oracle/gridio.c). A header is the face of its
source: an include names the header while a call lands in the source behind it, so file by file
a loop that runs through both (gridio.c calls rle.c, rle.c includes gridio.h) closes through no
arrow and goes unseen. A file without a partner of its name joins the unit whose name its own
extends (gridio_internal.h joins gridio, faults_gpu_kernels.cu joins faults_gpu), as farm-studio
draws a room; a test (NAME_test) and a file no unit's name begins are units of their own.

Unit A points at unit B when a file of A includes a file of B (#include "path", found from the
root, beside the including file, or else as the one file whose path ends so), or when A uses a
name that B alone defines: a function or variable defined in one of its sources, or a macro,
type, tag, enumerator or inline function of one of its headers (where no unit defines a name,
the one unit that declares it). What ties nothing: members (after . or ->), a file's own
declarations (a prototype is not a use), names a file declares for itself (a local `step` is not
another file's step), and names defined in more than one unit (each plugin's entry point).

Every .c, .h, .cu, .cuh, .cc, .cpp and .hpp file counts (those git ls-files lists, untracked ones
not ignored included, when ROOT is a git work tree; else every such file under ROOT): tests,
engines, fuzz targets and examples too. Prints each circle (units that reach each other) with
the arrows inside it and the names that tie each, then a summary line; exits 1 when there is a
circle, 0 when there is none."""
import os
import re
import subprocess
import sys

SOURCE_EXTS = (".c", ".cu", ".cc", ".cpp")
HEADER_EXTS = (".h", ".cuh", ".hpp")

# Words of C, C++ and CUDA that are never a project's names.
KEYWORDS = set("""
auto break case char const continue default do double else enum extern float for goto if inline
int long register restrict return short signed sizeof static struct switch typedef union unsigned
void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn
_Static_assert _Thread_local bool true false alignas alignof asm class constexpr decltype delete
explicit friend mutable namespace new noexcept nullptr operator private protected public
static_assert template this thread_local throw try catch typename using virtual
__attribute__ __restrict __restrict__ __inline __inline__ __extension__ __asm__ __typeof__
__global__ __device__ __host__ __shared__ __constant__ __managed__ __forceinline__ __noinline__
__launch_bounds__ __grid_constant__ defined
""".split())

TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|->|\"\"|\S")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)")


def strip_comments(text):
    """text without its comments (each a space, its newlines kept); literals kept whole."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " + "\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def blank_literals(text):
    """text with every string and character literal emptied to "" (comments already gone)."""
    return re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', '""', text)


def logical_lines(text):
    """The lines of text with backslash-continued lines joined."""
    return text.replace("\\\n", " ").split("\n")


class FileFacts:
    """What one file includes, defines, declares and uses."""

    def __init__(self, path, text, macros):
        self.path = path
        self.is_header = path.endswith(HEADER_EXTS)
        self.includes = []
        self.strong = set()  # definitions other units may use
        self.weak = set()  # declarations: prototypes, extern variables, forward tags
        self.private = set()  # static names of a source, its own macros
        self.uses = set()
        self.declared = set()  # names the file declares for itself, wherever
        code = []
        for line in logical_lines(strip_comments(text)):
            inc = INCLUDE.match(line)
            if inc:
                self.includes.append(inc.group(1))
                code.append("")
                continue
            line = blank_literals(line)
            if line.lstrip().startswith("#"):
                d = DEFINE.match(line)
                rest, params = line, set()
                if d:
                    (self.strong if self.is_header else self.private).add(d.group(1))
                    rest = line[d.end():]
                    if rest.startswith("("):  # a function-like macro's parameters are its own
                        params = set(TOKEN.findall(rest[:rest.find(")") + 1]))
                macro = TOKEN.findall(rest.replace("#", " "))
                self.uses.update(names_used(macro) - params)
                self.declared |= names_declared(macro)
                code.append("")
            else:
                code.append(line)
        tokens = TOKEN.findall("\n".join(code))
        self.uses.update(names_used(tokens))
        self.declared |= names_declared(tokens)
        self.uses -= self.declared
        self.read_file_scope(tokens, macros)

    def read_file_scope(self, tokens, macros):
        """The names the file's file-scope statements declare or define."""
        i, n, stmt, scopes = 0, len(tokens), [], []
        while i < n:
            t = tokens[i]
            hidden = "anonymous" in scopes
            if t == ";":
                self.statement(stmt, None, macros, hidden)
                stmt = []
            elif t == "{":
                j = matching(tokens, i)
                body = tokens[i + 1:j]
                if stmt == ["extern", '""'] or (stmt[:1] == ["namespace"] and len(stmt) <= 2):
                    # extern "C" { and namespace x {: their insides are file scope; what an
                    # anonymous namespace holds is the file's own.
                    scopes.append("anonymous" if stmt == ["namespace"] else "open")
                    stmt = []
                    j = i
                elif is_function_head(stmt, macros):
                    self.statement(stmt, body, macros, hidden)
                    stmt = []
                else:
                    stmt.append(("{}", body))
                i = j
            elif t == "}":
                if scopes:
                    scopes.pop()
                stmt = []
            else:
                stmt.append(t)
            i += 1

    def statement(self, stmt, body, macros, hidden):
        """Files the names of one file-scope statement (body: a function's, when it has one).
        A source keeps to itself its static names, what an anonymous namespace holds, its types,
        tags and enumerators (no other file can see them) and, in C++, its constants."""
        words = [t for t in stmt if isinstance(t, str)]
        if not words or words[0] in ("using", "template") and "(" not in words:
            return
        if not self.is_header:
            hidden = hidden or "static" in words
        types = self.private if hidden or not self.is_header else self.strong
        strong = self.private if hidden else self.strong
        # Tags and enumerators, wherever they stand in the statement.
        for k, t in enumerate(stmt):
            if t in ("struct", "union", "enum", "class") and k + 1 < len(stmt):
                tag = stmt[k + 1]
                if isinstance(tag, str) and is_name(tag):
                    has_body = k + 2 < len(stmt) and isinstance(stmt[k + 2], tuple)
                    (types if has_body or not self.is_header else self.weak).add(tag)
                    if t == "enum" and has_body:
                        types.update(enumerators(stmt[k + 2][1]))
            if t == "enum" and k + 1 < len(stmt) and isinstance(stmt[k + 1], tuple):
                types.update(enumerators(stmt[k + 1][1]))
        if "typedef" in words:
            name = declared_name(stmt)
            if name:
                types.add(name)
            return
        fn = function_name(stmt, macros)
        if fn:
            if body is not None:
                strong.add(fn)
            elif hidden:
                self.private.add(fn)
            else:
                self.weak.add(fn)
            return
        if body is not None:
            return
        name = declared_name(stmt)
        cxx_constant = self.path.endswith(SOURCE_EXTS[1:]) and "extern" not in words and (
            "const" in words[:words.index(name)] if name in words else False
        ) or "constexpr" in words
        if name:
            if hidden or (cxx_constant and not self.is_header):
                self.private.add(name)
            elif "extern" in words:
                self.weak.add(name)
            else:
                strong.add(name)


def is_name(t):
    return (t[0].isalpha() or t[0] == "_") and t not in KEYWORDS


# Words a declared name may follow: types and what qualifies them.
TYPE_WORDS = set("""
int char short long float double void signed unsigned const volatile restrict __restrict__ _Bool
bool auto register static extern inline constexpr __device__ __shared__ __constant__ __global__
__host__ __forceinline__
""".split())


def names_used(tokens):
    """The names in tokens, less members (after . or ->) and words of the language."""
    used, prev = set(), None
    for t in tokens:
        if is_name(t) and prev not in (".", "->"):
            used.add(t)
        prev = t
    return used


def names_declared(tokens):
    """The names tokens declare for themselves: a name after a type (or a *) and before = ; , ) [
    : or ( is a local variable, a parameter, a member or a function of the file's own, and hides
    any namesake elsewhere (a local `step` is not the step of another file)."""
    declared = set()
    for k in range(1, len(tokens) - 1):
        t, prev, nxt = tokens[k], tokens[k - 1], tokens[k + 1]
        if is_name(t) and nxt in ("=", ";", ",", ")", "[", ":", "(") and (
                prev == "*" or prev in TYPE_WORDS or is_name(prev)):
            declared.add(t)
    return declared


def matching(tokens, i):
    """The index of the } that closes the { at i (the last token when none does)."""
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j] == "{":
            depth += 1
        elif tokens[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(tokens) - 1


def enumerators(body):
    """The constants an enum's body names: the first name of each comma-separated item."""
    names, depth, expect = [], 0, True
    for t in body:
        if t in ("(", "{", "["):
            depth += 1
        elif t in (")", "}", "]"):
            depth -= 1
        elif t == "," and depth == 0:
            expect = True
        elif expect and depth == 0 and is_name(t):
            names.append(t)
            expect = False
    return names


def function_name(stmt, macros):
    """The name of the function a statement declares: the first name at parenthesis depth 0 that
    a ( follows (not a macro called at file scope, not an attribute)."""
    depth = 0
    for k, t in enumerate(stmt):
        if not isinstance(t, str):
            continue
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        elif (depth == 0 and is_name(t) and k + 1 < len(stmt) and stmt[k + 1] == "("
              and t not in macros):
            return t
    return None


def is_function_head(stmt, macros):
    """Whether a { after stmt opens a function's body rather than a type or an initializer."""
    words = [t for t in stmt if isinstance(t, str)]
    return bool(words) and "=" not in words and ")" in words and function_name(stmt, macros)


def declared_name(stmt):
    """The name a typedef or variable statement declares: in (*NAME), else the last name at
    parenthesis depth 0 before an initializer or an array size."""
    for k in range(len(stmt) - 2):
        if stmt[k] == "(" and stmt[k + 1] == "*" and isinstance(stmt[k + 2], str) \
                and is_name(stmt[k + 2]):
            return stmt[k + 2]
    name, depth = None, 0
    for k, t in enumerate(stmt):
        if not isinstance(t, str):
            continue
        if t in ("=", "[") and depth == 0:
            break
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        elif depth == 0 and is_name(t) and not (k and stmt[k - 1] in ("struct", "union", "enum")):
            name = t
    return name


def list_files(root):
    exts = SOURCE_EXTS + HEADER_EXTS
    if os.path.exists(os.path.join(root, ".git")):
        out = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard"],
                             check=True, capture_output=True, text=True).stdout
        return sorted(p for p in out.splitlines()
                      if p.endswith(exts) and os.path.isfile(os.path.join(root, p)))
    found = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith((".", "bazel-")))
        found += [os.path.relpath(os.path.join(d, f), root) for f in files if f.endswith(exts)]
    return sorted(found)


def unit_map(paths):
    """Each file's unit. A source and a header of one name in one folder are a unit, named by
    that path less its extension. A file without a partner of its name (a private header such as
    gridio_internal.h, a CUDA half such as faults_gpu_kernels.cu) belongs to the unit whose name
    its own extends by "_..." (the longest such), as farm-studio draws a room. Tests (NAME_test)
    and files no unit's name begins are units of their own."""
    stems = {}
    for p in paths:
        stems.setdefault(os.path.splitext(p)[0], []).append(p)
    paired = {s for s, files in stems.items()
              if any(f.endswith(SOURCE_EXTS) for f in files)
              and any(f.endswith(HEADER_EXTS) for f in files)}
    unit = {}
    for s, files in stems.items():
        home = s
        if s not in paired and not s.endswith("_test"):
            for cut in range(len(s) - 1, 0, -1):
                if s[cut] == "_" and s[:cut] in paired:
                    home = s[:cut]
                    break
        for f in files:
            unit[f] = home
    return unit


def resolve(include, path, files, by_suffix):
    for candidate in (include, os.path.normpath(os.path.join(os.path.dirname(path), include))):
        if candidate in files:
            return candidate
    matches = by_suffix.get(os.path.basename(include), [])
    matches = [f for f in matches if f.endswith("/" + include)]
    return matches[0] if len(matches) == 1 else None


def analyse(root):
    """(units, arrows): units maps a unit to its files; arrows maps (A, B) to the set of what
    ties A to B ('#include "x"' or a name)."""
    paths = list_files(root)
    texts = {}
    for p in paths:
        with open(os.path.join(root, p), encoding="utf-8", errors="replace") as f:
            texts[p] = f.read()
    macros = set()
    for p, text in texts.items():
        if p.endswith(HEADER_EXTS):
            for line in logical_lines(strip_comments(text)):
                d = DEFINE.match(line)
                if d:
                    macros.add(d.group(1))
    facts = {p: FileFacts(p, texts[p], macros) for p in paths}
    unit_of = unit_map(paths).get
    units = {}
    for p in paths:
        units.setdefault(unit_of(p), []).append(p)
    strong, weak = {}, {}
    for p, fa in facts.items():
        for name in fa.strong:
            strong.setdefault(name, set()).add(unit_of(p))
        for name in fa.weak:
            weak.setdefault(name, set()).add(unit_of(p))
    owner = {}
    for name in set(strong) | set(weak):
        by = strong.get(name) or weak.get(name)
        if len(by) == 1:
            owner[name] = next(iter(by))
    by_suffix = {}
    for p in paths:
        by_suffix.setdefault(os.path.basename(p), []).append(p)
    files = set(paths)
    arrows = {}
    for p, fa in facts.items():
        a = unit_of(p)
        own = set(fa.weak)  # declaring a name is not using it
        for q in units[a]:
            own |= facts[q].strong | facts[q].private
        for inc in fa.includes:
            target = resolve(inc, p, files, by_suffix)
            if target and unit_of(target) != a:
                arrows.setdefault((a, unit_of(target)), set()).add('#include "%s"' % inc)
        for name in fa.uses - own:
            b = owner.get(name)
            if b and b != a:
                arrows.setdefault((a, b), set()).add(name)
    return units, arrows


def circles(units, arrows):
    """The strongly connected sets of more than one unit (Tarjan's algorithm, without recursion)."""
    succ = {u: [] for u in units}
    for a, b in arrows:
        succ[a].append(b)
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for start in sorted(units):
        if start in index:
            continue
        work = [(start, iter(sorted(succ[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(succ[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return sorted(found)


def label(unit, units):
    """A unit by its source (else its header), as farm-studio names a room."""
    files = units[unit]
    sources = [f for f in files if f.endswith(SOURCE_EXTS)]
    return (sources or files)[0]


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      "..")
    units, arrows = analyse(root)
    found = circles(units, arrows)
    for k, comp in enumerate(found, 1):
        print("circle %d: %d units: %s" % (k, len(comp), ", ".join(label(u, units) for u in comp)))
        members = set(comp)
        for (a, b), ties in sorted(arrows.items()):
            if a in members and b in members:
                print("  %s -> %s: %s" % (label(a, units), label(b, units), ", ".join(sorted(ties))))
    files = sum(len(f) for f in units.values())
    if found:
        print("%d circle(s) among %d units (%d files)" % (len(found), len(units), files))
        return 1
    print("no circle among %d units (%d files)" % (len(units), files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
