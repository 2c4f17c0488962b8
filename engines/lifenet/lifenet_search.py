#!/usr/bin/python3
"""The shortest rule stage for each rule named on the command line, printed as an entry of
lifenet_stages.c's table: for each signal set (0 = t0 k0 t1 k1 alive, the full adders' outputs,
a network of 4 + g gates; 1 = t0 u1 cc k1 alive, 6 + g), the fewest gates g (up to
LIFENET_STAGE_GATES) that compute the rule, found by a SAT solver (Debian's python3-pycosat):
every smaller g is proved to have none. The target is the rule on every neighbourhood (M0), and
lifenet_test checks every rule's network on every neighbourhood. A tool, not a test: a second or
two a rule.

    /usr/bin/python3 engines/lifenet/lifenet_search.py B3/S23 B3678/S34678 B2/S34H
"""
import itertools
import sys

import pycosat

STAGE_GATES = 4  # lifenet_stages.h's LIFENET_STAGE_GATES
SIGNALS = 5


def parse(text):
    """B.../S... with an optional H (hexagonal); M0 only, as the table holds."""
    hexagonal = text.endswith("H")
    born, kept = text.rstrip("H").split("/")
    if not born.startswith("B") or not kept.startswith("S"):
        raise ValueError("not a B/S rule: " + text)
    return hexagonal, {int(c) for c in born[1:]}, {int(c) for c in kept[1:]}


def rows_of(hexagonal, birth, survive, signal_set):
    """The target on every neighbourhood, by the set's signals, or None where it is not a
    function of them. A combination of the signals that no neighbourhood gives (a live centre
    in a row of none; a hexagonal pair of two carries) is left free: every engine of the family
    feeds the network adders of real cells."""
    rows = {}
    for j in range(128 if hexagonal else 512):
        if hexagonal:  # six neighbours (bits 0..5, two a row) and the centre (bit 6)
            cells, alive = [(j >> i) & 1 for i in range(6)], (j >> 6) & 1
            pairs = [(cells[i] ^ cells[i + 1], cells[i] & cells[i + 1]) for i in (0, 2, 4)]
            count = sum(cells)
        else:  # the 3 x 3 block, row-major, the centre bit 4
            cells, alive = [(j >> i) & 1 for i in range(9)], (j >> 4) & 1
            pairs = [(sum(cells[i:i + 3]) & 1, sum(cells[i:i + 3]) >> 1) for i in (0, 3, 6)]
            count = sum(cells) - alive
        (a0, a1), (b0, b1), (d0, d1) = pairs
        t0, k0 = a0 ^ b0 ^ d0, int(a0 + b0 + d0 >= 2)
        t1, k1 = a1 ^ b1 ^ d1, int(a1 + b1 + d1 >= 2)
        state = int(count in (survive if alive else birth))
        key = (t0, k0, t1, k1, alive) if signal_set == 0 else (t0, k0 ^ t1, k0 & t1, k1, alive)
        if rows.setdefault(key, state) != state:
            return None
    return rows


def stage(rows, gates):
    """Gates (a, b, c, truth table in LOP3's order), operands 0..4 the signals and 5.. the
    stage's earlier gates, the last the output; None where there are none."""
    count = [0]

    def var():
        count[0] += 1
        return count[0]

    keys = sorted(rows)
    table = [[var() for _ in range(8)] for _ in range(gates)]
    value = [[var() for _ in keys] for _ in range(gates)]
    chosen, clauses = [], []
    for g in range(gates):
        triples = list(itertools.combinations(range(SIGNALS + g), 3))
        if g == gates - 1 and gates > 1:  # the output reads the gate before it
            triples = [t for t in triples if t[2] == SIGNALS + g - 1]
        pick = {t: var() for t in triples}
        chosen.append(pick)
        clauses.append(list(pick.values()))
        clauses += [[-x, -y] for x, y in itertools.combinations(pick.values(), 2)]
        for triple, p in pick.items():
            for r, key in enumerate(keys):
                for k in range(8):
                    # Minterm k of LOP3: bit 2 is a, bit 1 is b, bit 0 is c.
                    want = ((k >> 2) & 1, (k >> 1) & 1, k & 1)
                    clause, possible = [-p], True
                    for operand, bit in zip(triple, want):
                        if operand < SIGNALS:
                            possible = possible and key[operand] == bit
                        else:
                            lit = value[operand - SIGNALS][r]
                            clause.append(-lit if bit else lit)
                    if possible:
                        clauses.append(clause + [-value[g][r], table[g][k]])
                        clauses.append(clause + [value[g][r], -table[g][k]])
    for r, key in enumerate(keys):
        clauses.append([value[-1][r] if rows[key] else -value[-1][r]])
    solution = pycosat.solve(clauses)
    if solution == "UNSAT":
        return None
    true = {x for x in solution if x > 0}
    found = []
    for g in range(gates):
        triple = next(t for t, p in chosen[g].items() if p in true)
        found.append(triple + (sum(1 << k for k in range(8) if table[g][k] in true),))
    return found


def evaluate(rows, found):
    """The stage on every row, as lifenet_lop3 computes a gate."""
    for key, want in rows.items():
        s = list(key)
        for a, b, c, imm in found:
            s.append(imm >> (4 * s[a] + 2 * s[b] + s[c]) & 1)
        if s[-1] != want:
            return False
    return True


def main(names):
    status = 0
    for name in names:
        hexagonal, birth, survive = parse(name)
        best = None
        for signal_set in (0, 1):
            rows = rows_of(hexagonal, birth, survive, signal_set)
            for gates in range(1, STAGE_GATES + 1):
                found = rows and stage(rows, gates)
                if found:
                    assert evaluate(rows, found), name
                    total = (6 if signal_set else 4) + gates
                    if best is None or total < best[0]:
                        best = (total, signal_set, found)
                    break
        if best is None:
            print(f"lifenet_search: {name}: no stage of up to {STAGE_GATES} gates",
                  file=sys.stderr)
            status = 1
            continue
        total, signal_set, found = best
        mask = lambda counts: sum(1 << c for c in counts)
        ops = ", ".join(f"{{{a}, {b}, {c}, 0x{imm:02x}}}" for a, b, c, imm in found)
        print(f"    {{{4 if hexagonal else 0}, 0, 0x{mask(birth):03x}, 0x{mask(survive):03x}, "
              f"{signal_set}, {len(found)}, {{{ops}}}}}, /* {name}: {total} gates before folding "
              f"(the fewest over both sets) */")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
