#!/usr/bin/env python3
"""Fits the search bot's learned campaign value (docs/ai.md, "The learned value").

Input: the file written by `westphalia-cli tournament ... --features FILE` (one row per card round of
every finished game: turn, last turn, the side to play, the features of model/ai valueFeatures(), then
after '|' the game's winner, final VP, final turn, the final control of Austria, Bavaria and the
Spanish Netherlands and the bots that played the Catholic and the Protestant; files written before the
bots were recorded have no bot columns). Output: model/ai/campaign_value.inc, per turns left (last turn -
turn, 0..13):

  * a least-squares fit of the final VP on the features (a small ridge keeps the columns that do not vary
    in a turn, such as the Areas in turn 1, at zero), and the residuals' spread;
  * per Area of the Catholic's three and its control now, how often the Catholic holds it at the end
    (with one success and one failure added).

A quarter of the games (drawn with a fixed seed) are held out and the table is fitted on the rest: the
script prints the log-loss of the outcome (Catholic win, draw, Protestant win) on the held-out games for
the fitted value and for the hand-made outlook it replaces (bots.cpp victoryOutlook), so that a new fit
can be judged before it is built in.

Plain Python 3, no packages: python3 scripts/fit_value.py FEATURES [OUT.inc]
"""
import math
import random
import sys

TURNS = 14
RIDGE = 1e-3


def read(path):
    names, games, current, last_key = None, [], None, None
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                head = line[1:].split("|")[0].split()
                names = head[3:]
                continue
            if "|" not in line:
                sys.exit(f"{path}:{lineno}: no '|' before the game's outcome")
            left, right = line.split("|")
            a, b = left.split(), right.split()
            if names is None or len(a) != 3 + len(names) or len(b) not in (6, 8):
                sys.exit(f"{path}:{lineno}: expected 3 + {len(names or [])} columns, '|', 6 or 8 columns")
            turn, last = int(a[0]), int(a[1])
            row = (last - turn, [float(x) for x in a[3:]], int(b[0]), int(b[1]), [int(x) for x in b[3:6]])
            key = right
            # a game's rows are contiguous and its turns never go back
            if current is None or key != last_key or row[0] > current[-1][0]:
                current = []
                games.append(current)
            current.append(row)
            last_key = key
    if names is None:
        sys.exit(f"{path}: no header line ('# turn last-turn side <features> | ...')")
    return names, games


def solve(a, b):
    n = len(b)
    m = [a[i][:] + [b[i]] for i in range(n)]
    for i in range(n):
        m[i][i] += RIDGE
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c] != 0:
                k = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= k * m[c][j]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


def fit(rows, nf, area_cols):
    coef, sigma, area = {}, {}, {}
    for t in range(TURNS):
        rs = [r for r in rows if r[0] == t]
        a = [[0.0] * nf for _ in range(nf)]
        b = [0.0] * nf
        for _, f, _, vp, _ in rs:
            for i in range(nf):
                fi = f[i]
                if fi == 0:
                    continue
                b[i] += fi * vp
                ai = a[i]
                for j in range(nf):
                    ai[j] += fi * f[j]
        c = solve(a, b) if rs else [0.0] * nf
        res = [vp - sum(x * y for x, y in zip(c, f)) for _, f, _, vp, _ in rs]
        coef[t] = c
        sigma[t] = max(1.0, math.sqrt(sum(x * x for x in res) / max(1, len(res))))
        for k, col in enumerate(area_cols):
            for ctl in (-1, 0, 1):
                now = [r for r in rs if int(r[1][col]) == ctl]
                held = sum(1 for r in now if r[4][k] == 0)  # 0: the Catholic
                area[(t, k, ctl)] = (held + 1) / (len(now) + 2)
    return coef, sigma, area


def learned(model, area_cols):
    coef, sigma, area = model

    def p(t, f):
        mu = sum(x * y for x, y in zip(coef[t], f))
        pc = phi((mu - 29.5) / sigma[t])
        for k, col in enumerate(area_cols):
            pc *= area[(t, k, int(f[col]))]
        return pc, phi((10.5 - mu) / sigma[t])

    return p


def handmade(area_cols):
    def p(t, f):
        left = t + 0.5
        s = 1.5 + 2.2 * math.sqrt(left)
        early = min(1.0, left / 12)
        pc = phi((f[1] - 29.5) / s)
        for col in area_cols:
            q = {1: 0.92, 0: 0.35, -1: 0.12}[int(f[col])]
            pc *= q + (0.5 - q) * early * 0.6
        return pc, phi((10.5 - f[1]) / s)

    return p


def log_loss(rows, p):
    total, per = 0.0, {}
    for t, f, winner, _, _ in rows:
        pc, pp = p(t, f)
        probs = {0: max(pc, 1e-6), 1: max(pp, 1e-6)}
        q = probs.get(winner, max(1e-6, 1 - pc - pp))
        total -= math.log(q)
        s = per.setdefault(t, [0.0, 0])
        s[0] -= math.log(q)
        s[1] += 1
    return total / max(1, len(rows)), {t: v[0] / v[1] for t, v in per.items()}


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    names, games = read(sys.argv[1])
    out = sys.argv[2] if len(sys.argv) == 3 else "model/ai/campaign_value.inc"
    for need in ("one", "vp", "austria", "bavaria", "spanish-nl"):
        if need not in names:
            sys.exit(f"{sys.argv[1]}: the header has no '{need}' column")
    if names[1] != "vp":
        sys.exit(f"{sys.argv[1]}: the second feature must be 'vp'")
    area_cols = [names.index(a) for a in ("austria", "bavaria", "spanish-nl")]
    nf = len(names)
    order = list(range(len(games)))
    random.Random(1).shuffle(order)
    held = set(order[: len(games) // 4])
    train = [r for i, g in enumerate(games) if i not in held for r in g]
    test = [r for i, g in enumerate(games) if i in held for r in g]
    model = fit(train, nf, area_cols)
    print(f"{len(games)} games: {len(train)} rows fitted, {len(test)} rows of {len(held)} games held out")
    for label, p in (("hand-made outlook", handmade(area_cols)), ("learned value", learned(model, area_cols))):
        total, per = log_loss(test, p)
        print(f"{label:18} log-loss {total:.4f}  by turns left: "
              + " ".join(f"{t}:{v:.3f}" for t, v in sorted(per.items())))
    # the table built in is the one measured on the held-out games
    coef, sigma, area = model
    with open(out, "w", encoding="utf-8") as f:
        f.write("// Generated by scripts/fit_value.py from " + f"{len(games) - len(held)} of {len(games)} games "
                "(docs/ai.md, \"The learned value\"); do not edit by hand.\n")
        f.write("// Index: turns left (last turn - turn). Columns: valueFeatureNames().\n")
        f.write("static const char* const kCampaignValueFeatures[] = {"
                + ", ".join(f'"{n}"' for n in names) + "};\n")
        f.write("static const double kCampaignValueSigma[] = {"
                + ", ".join(f"{sigma[t]:.4f}" for t in range(TURNS)) + "};\n")
        f.write(f"static const double kCampaignValueCoef[][{nf}] = {{\n")
        for t in range(TURNS):
            f.write("    {" + ", ".join(f"{x:.6g}" for x in coef[t]) + "},\n")
        f.write("};\n")
        f.write("// per turns left, Area (Austria, Bavaria, the Spanish Netherlands) and its control now\n"
                "// (Protestant, none, Catholic): P(the Catholic holds it at the end)\n")
        f.write("static const double kCampaignValueArea[][3][3] = {\n")
        for t in range(TURNS):
            f.write("    {" + ", ".join("{" + ", ".join(f"{area[(t, k, c)]:.4f}" for c in (-1, 0, 1)) + "}"
                                        for k in range(3)) + "},\n")
        f.write("};\n")
    print("written", out)


if __name__ == "__main__":
    main()
