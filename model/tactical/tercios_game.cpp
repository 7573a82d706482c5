// A Tercios battle as (scenario, seed) plus an ordered action list with undo back to the last die roll or
// change of player (design principles 3), a simple policy for either side and auto-resolve.
#include "tactical_game.h"
#include "tercios.h"

#include <algorithm>
#include <cmath>

namespace wp::tactical {

TerciosGame::TerciosGame(const TerciosEngine& engine, const TerciosState& scenario, quint64 seed)
    : m_engine(engine), m_state(scenario) {
    m_state.rng.reseed(seed);
    m_state.note(QStringLiteral("seed %1").arg(seed));
    m_engine.start(m_state);
}

bool TerciosGame::apply(const TcAction& a, QString* error) {
    TerciosState before = m_state;
    before.log.clear(); // the log only grows: undo truncates it (and the live log is not detached per action)
    const qsizetype logSize = m_state.log.size();
    const quint64 rolls = m_state.rolls;
    const int actor = m_engine.actor(m_state);
    const QString text = actionText(m_state, a);
    if (!m_engine.apply(m_state, a, error))
        return false;
    m_actions << a;
    m_texts << text;
    if (m_state.rolls != rolls || m_engine.actor(m_state) != actor)
        m_undo.clear(); // a die was rolled or the player changed: no undo past this point
    else {
        before.log = QStringList{QString::number(logSize)};
        m_undo << std::pair{std::move(before), m_actions.size() - 1};
    }
    return true;
}

bool TerciosGame::applyText(const QString& text, QString* error) {
    TcAction a;
    if (!parseAction(m_state, text, &a, error))
        return false;
    return apply(a, error);
}

bool TerciosGame::undo() {
    if (m_undo.isEmpty())
        return false;
    auto [st, n] = m_undo.takeLast();
    QStringList log = std::move(m_state.log);
    log.resize(st.log.value(0).toLongLong());
    m_state = std::move(st);
    m_state.log = std::move(log);
    m_actions.resize(n);
    m_texts.resize(n);
    return true;
}

// ---- policy --------------------------------------------------------------------------------------------

namespace {

// A charge of u on t by the exact melee odds (Tercios L590-712): win minus lose, then the Wear exchanged;
// -10 when u cannot reach t.
double chargeScore(const TerciosEngine& e, const TerciosState& s, int u, int t, const ChargePath& cp) {
    const MeleeOdds o = e.meleeOdds(s, u, t, cp.flank, false);
    return o.pWin - o.pLose + 0.2 * (o.wearOnTarget - o.wearOnAttacker);
}
double chargeScore(const TerciosEngine& e, const TerciosState& s, int u, int t) {
    const auto cp = e.chargePath(s, u, t);
    return cp ? chargeScore(e, s, u, t, *cp) : -10;
}

// The Assault phase's choice of the simple policy when the active unit can charge: the Charge listed by
// legalActions (every enemy with a charge path, in order) with the best chargeScore, the first of equals;
// each path computed once (legalActions and chargeScore would find it twice). nullopt when none.
std::optional<TcAction> bestCharge(const TerciosEngine& e, const TerciosState& s) {
    const int u = s.activeUnit;
    std::optional<TcAction> best;
    double bestScore = -1e300;
    for (qsizetype t = 0; t < s.units.size(); ++t)
        if (s.units[t].side != s.units[u].side)
            if (const auto cp = e.chargePath(s, u, int(t)))
                if (const double sc = chargeScore(e, s, u, int(t), *cp); sc > bestScore) {
                    bestScore = sc;
                    TcAction a;
                    a.kind = TcAction::Charge;
                    a.unit = u;
                    a.target = int(t);
                    best = a;
                }
    return best;
}

// Whether u has a target to shoot at: !shotOptions(s, u).isEmpty(), stopping at the first.
bool anyShot(const TerciosEngine& e, const TerciosState& s, int u) {
    for (qsizetype t = 0; t < s.units.size(); ++t)
        if (e.shotSource(s, u, int(t)))
            return true;
    return false;
}

// The legal action of `kind` with the best score (the first of equals), or nullopt.
template <class Score>
std::optional<TcAction> bestOf(const QList<TcAction>& legal, TcAction::Kind kind, Score score) {
    std::optional<TcAction> best;
    double bestScore = -1e300;
    for (const TcAction& a : legal)
        if (a.kind == kind)
            if (const double sc = score(a); sc > bestScore) {
                bestScore = sc;
                best = a;
            }
    return best;
}

// The shot most likely to break its target, then with the most expected Wear (exact odds, L525-572).
std::optional<TcAction> bestShot(const TerciosEngine& e, const TerciosState& s, const QList<TcAction>& legal,
                                 bool readyOrder) {
    return bestOf(legal, TcAction::Fire, [&](const TcAction& a) {
        const ShotOdds o = e.shotOdds(s, a.unit, a.target, readyOrder, false);
        return o.pBreak + 0.25 * o.expectedWear;
    });
}

// The card a unit gets in planning: charge what it can reach at fair odds, shoot what it can hit, rest
// when worn and safe, otherwise get ready (move and shoot).
Card planCard(const TerciosEngine& e, const TerciosState& s, int u) {
    const TUnit& x = s.units[u];
    const TProfile& p = e.profile(s, u);
    const double near = e.nearestEnemy(s, u, x.pose);
    if (x.wear >= 2 && near > 10)
        return Card::Resist;
    if (p.type == TType::Artillery)
        return Card::Fire;
    if (p.melee >= 3 && !e.weary(s, u)) {
        double best = -10;
        for (qsizetype t = 0; t < s.units.size(); ++t)
            if (s.units[t].side != x.side && s.units[t].onTable())
                best = std::max(best, chargeScore(e, s, u, int(t)));
        if (best > -0.1) // not a likely defeat
            return Card::Assault;
    }
    if (e.canShoot(s, u, Card::Fire, false) && anyShot(e, s, u))
        return Card::Fire;
    if (p.type == TType::Horse && near < 2 * p.speed && p.melee >= 3)
        return Card::Assault;
    return Card::Ready;
}

// A listed Face (the free Mobility turn first) that turns u towards its nearest enemy, when that enemy's
// centre lies outside the cone of cosine `cosOff` around u's front; nullopt otherwise.
std::optional<TcAction> faceTowardsEnemy(const TerciosState& s, const QList<TcAction>& legal, int u,
                                         double cosOff) {
    const Pose& p = s.units[u].pose;
    int nearest = -1;
    double best = 1e300;
    for (qsizetype t = 0; t < s.units.size(); ++t)
        if (s.units[t].side != s.units[u].side && s.units[t].onTable())
            if (const double d = (s.units[t].pose.c - p.c).length(); d < best) {
                best = d;
                nearest = int(t);
            }
    if (nearest < 0 || best < 1e-9)
        return std::nullopt;
    const Vec2 to = (s.units[nearest].pose.c - p.c) * (1.0 / best);
    double now = to.dot(dirDeg(p.facing));
    if (now >= cosOff)
        return std::nullopt;
    std::optional<TcAction> pick;
    for (const bool mobility : {true, false}) {
        for (const TcAction& a : legal)
            if (a.kind == TcAction::Face && a.mobility == mobility) {
                const double after = to.dot(dirDeg(p.facing + (a.dir == 2 ? 180 : a.dir * 90)));
                if (after > now + 0.3) {
                    now = after;
                    pick = a;
                }
            }
        if (pick)
            return pick;
    }
    return std::nullopt;
}

// ---- deployment (Tercios L1501-1505, G50) ----

// How good the ground at p is for a unit of this type to start from: Height and cover for Foot and guns,
// Difficult ground slows the first move (the whole move, G30), Impassable is no place at all.
double groundValue(const TerciosEngine& e, const TerciosState& s, Vec2 p, TType type) {
    const unsigned f = e.featuresAt(s, p);
    double v = 0;
    if (f & FImpassable)
        v -= 2;
    if (f & (FDifficult | FVeryDifficult))
        v -= 1;
    if (type != TType::Horse) {
        if (f & FCovered)
            v += 0.5;
        if (f & FHeight)
            v += 1;
    }
    return v;
}

// The side of the table whose deployment area has the better ground (a 2" grid), the low one on a tie.
int chooseDeploySide(const TerciosEngine& e, const TerciosState& s) {
    const double depth = s.deployLong ? s.tableD : s.tableW, across = s.deployLong ? s.tableW : s.tableD;
    double value[2] = {0, 0};
    for (int edge = 0; edge < 2; ++edge) {
        const double lo = edge == 0 ? 0 : depth / 2 + 12, hi = edge == 0 ? depth / 2 - 12 : depth;
        for (double d = lo + 1; d < hi; d += 2)
            for (double a = 1; a < across; a += 2)
                value[edge] += groundValue(e, s, s.deployLong ? Vec2{a, d} : Vec2{d, a}, TType::Foot);
    }
    return value[1] > value[0] + 1e-9 ? 1 : 0;
}

TType regimentType(const TerciosEngine& e, const TerciosState& s, int reg) {
    // The arm of most of its units (a Medium Artillery battery's pike guard does not make it Foot).
    int n[3] = {0, 0, 0};
    for (int u : s.regiments[reg].units)
        ++n[int(e.type(s, u))];
    return n[2] >= n[0] && n[2] >= n[1] ? TType::Artillery : n[1] > n[0] ? TType::Horse : TType::Foot;
}

// One regiment's place: Foot first, then the guns, the Horse last (it answers the enemy's deployment);
// each where its units stand best (groundValue, all four Centres for Height), not crowded against a friend,
// Horse on the wings, Foot and guns in the centre and across from the enemy already on the table, the
// front line preferred (less ground to cross; the guns' range).
TcAction chooseDeployment(const TerciosEngine& e, const TerciosState& s, const QList<TcAction>& legal) {
    auto rank = [&](int reg) {
        const TType t = regimentType(e, s, reg);
        return t == TType::Foot ? 0 : t == TType::Artillery ? 1 : 2;
    };
    int reg = legal.first().target;
    for (const TcAction& a : legal)
        if (rank(a.target) < rank(reg))
            reg = a.target;
    const TType type = regimentType(e, s, reg);
    const double across = s.deployLong ? s.tableW : s.tableD;
    auto lateral = [&](Vec2 p) { return s.deployLong ? p.x : p.y; };
    auto depthOf = [&](Vec2 p) { return s.deployLong ? p.y : p.x; };
    QList<double> enemies; // the lateral places of the enemy units on the table
    for (const TUnit& y : s.units)
        if (y.side != s.current && y.onTable())
            enemies << lateral(y.pose.c);
    double frontDepth = 0;
    bool first = true;
    for (const TcAction& a : legal)
        if (a.target == reg) {
            const double d = std::abs(depthOf(a.to) - (s.deployLong ? s.tableD : s.tableW) / 2);
            frontDepth = first ? d : std::min(frontDepth, d);
            first = false;
        }
    std::optional<TcAction> best;
    double bestScore = -1e300;
    for (const TcAction& a : legal) {
        if (a.target != reg)
            continue;
        const auto poses = e.deployPoses(s, reg, a.to);
        if (!poses)
            continue;
        double sc = 0;
        const QList<int>& units = s.regiments[reg].units;
        for (qsizetype i = 0; i < poses->size(); ++i) {
            const Pose& p = (*poses)[i];
            const TType t = e.type(s, units[i]);
            sc += groundValue(e, s, e.centre(p, 0), t);
            if (t != TType::Horse && e.allCentresIn(s, p, FHeight))
                sc += 0.5;
            double friendGap = 1e9;
            for (const TUnit& y : s.units)
                if (y.side == s.current && y.onTable())
                    friendGap = std::min(friendGap, distance(p, y.pose));
            if (friendGap < 2)
                sc -= 0.5; // no room to manoeuvre
        }
        const double k = std::abs(lateral(a.to) - across / 2) / (across / 2); // 0 centre, 1 edge
        sc += type == TType::Horse ? 1.0 * k : -0.5 * k;
        if (type != TType::Horse && !enemies.isEmpty()) {
            double gap = 1e9;
            for (double y : enemies)
                gap = std::min(gap, std::abs(y - lateral(a.to)));
            sc -= 0.02 * gap;
        }
        if (std::abs(std::abs(depthOf(a.to) - (s.deployLong ? s.tableD : s.tableW) / 2) - frontDepth) < 0.5)
            sc += 0.3; // the front line
        if (sc > bestScore + 1e-9) {
            bestScore = sc;
            best = a;
        }
    }
    return best ? *best : legal.first();
}

TcAction simple(const TerciosEngine& e, const TerciosState& s, const QList<TcAction>& legal) {
    auto first = [&](TcAction::Kind k) -> std::optional<TcAction> {
        for (const TcAction& a : legal)
            if (a.kind == k)
                return a;
        return std::nullopt;
    };
    switch (s.phase) {
    case TPhase::DeploySide:
        for (const TcAction& a : legal)
            if (a.target == chooseDeploySide(e, s))
                return a;
        return legal.first();
    case TPhase::Deploy:
        return chooseDeployment(e, s, legal);
    case TPhase::Planning: {
        const int u = legal.first().unit;
        const Card c = planCard(e, s, u);
        for (const TcAction& a : legal)
            if (a.unit == u && a.target < 0 && a.card == c)
                return a;
        return legal.first();
    }
    case TPhase::Initiative:
        for (const TcAction& a : legal)
            if (a.target == s.stepSide)
                return a;
        return legal.first();
    case TPhase::Activate: {
        // Units that can shoot or charge now first, then the rest.
        for (const TcAction& a : legal) {
            const TUnit& x = s.units[a.unit];
            if ((x.card == Card::Fire || x.card == Card::Ready) && e.canShoot(s, a.unit, x.card, false) &&
                anyShot(e, s, a.unit))
                return a;
            if (x.card == Card::Assault)
                for (qsizetype t = 0; t < s.units.size(); ++t)
                    if (s.units[t].side != x.side && e.chargePath(s, a.unit, int(t)))
                        return a;
        }
        return legal.first();
    }
    case TPhase::Ready:
    case TPhase::Run: {
        if (auto f = bestShot(e, s, legal, s.phase == TPhase::Ready))
            return *f;
        if (auto r = first(TcAction::Reorganize))
            return *r;
        const int u = s.activeUnit;
        // The nearest enemy behind the front (a unit turned away by an Angle Correction, a retreat or an
        // enemy that went round it): face it first (Horse: the free Mobility turn), then move.
        if (auto f = faceTowardsEnemy(s, legal, u, 0.0))
            return *f;
        const double now = e.nearestEnemy(s, u, s.units[u].pose);
        const bool shooter = e.canShoot(s, u, Card::Fire, false);
        if (!(shooter && now < e.profile(s, u).range * 0.8) && e.canMoveNow(s, u)) {
            // The legal list came without its candidate moves (chooseTerciosAction): the same candidates,
            // in the same order, with their poses.
            QList<Pose> poses;
            const QList<Vec2> tos =
                e.candidateMoves(s, u, s.phase == TPhase::Ready ? Card::Ready : Card::Run, &poses);
            double bestScore = 0.5;
            std::optional<TcAction> best;
            for (qsizetype i = 0; i < tos.size(); ++i) {
                const double after = std::max(2.0, e.nearestEnemy(s, u, poses[i]));
                if (now - after > bestScore) {
                    bestScore = now - after;
                    TcAction a;
                    a.kind = TcAction::Move;
                    a.unit = u;
                    a.to = tos[i];
                    best = a;
                }
            }
            if (best)
                return *best;
        }
        // Nothing to shoot and nowhere better to go: at least face the nearest enemy (more than 45 degrees
        // off the front).
        if (auto f = faceTowardsEnemy(s, legal, u, 0.7))
            return *f;
        return *first(TcAction::Done);
    }
    case TPhase::Fire:
        if (auto f = bestShot(e, s, legal, false))
            return *f;
        return legal.first(); // done
    case TPhase::Assault:
        // The charge with the best odds; out of reach the first approach, else done.
        if (auto c = bestOf(legal, TcAction::Charge,
                            [&](const TcAction& a) { return chargeScore(e, s, a.unit, a.target); }))
            return *c;
        return legal.first();
    case TPhase::Caracole:
        return e.weary(s, s.activeUnit) ? legal.first() : *first(TcAction::Done);
    case TPhase::Reaction:
        return legal.first(); // react when the card allows it
    case TPhase::Over:
        break;
    }
    return legal.first();
}

} // namespace

TcAction chooseTerciosAction(const TerciosEngine& engine, const TerciosState& s, bool random,
                             wp::rules::Rng& rng) {
    if (!random && s.phase == TPhase::Assault)
        if (auto c = bestCharge(engine, s))
            return *c;
    // The simple policy lists a Ready!/Run! unit's candidate moves only when it wants to move.
    const bool lazyMoves = !random && (s.phase == TPhase::Ready || s.phase == TPhase::Run);
    const QList<TcAction> legal = engine.legalActions(s, !lazyMoves);
    if (legal.isEmpty())
        return {};
    if (random)
        return legal[rng.below(int(legal.size()))];
    return simple(engine, s, legal);
}

AutoResult summarize(const TerciosState& s) {
    AutoResult r;
    r.winner = s.over() ? s.winner : -1;
    r.turns = s.turn;
    for (int side = 0; side < 2; ++side) {
        r.lost[side] = s.destroyed[side];
        r.eliminated[side] = s.destroyed[side];
        r.commandersLost[side] = 0; // the seed has no rule for losing a Commander (docs/tercios.md)
    }
    r.reason = s.over() ? s.resultReason : QStringLiteral("not finished");
    return r;
}

namespace {

// The policy plays both sides until the end or the cap; `apply` applies one action to the battle.
template <class Apply>
AutoResult resolveWith(const TerciosEngine& engine, const TerciosState& s, Apply apply,
                       std::array<bool, 2> random, quint64 policySeed, int maxActions) {
    wp::rules::Rng rng(policySeed ^ 0x7e3c105ULL);
    int n = 0;
    while (!s.over() && n < maxActions) {
        const TcAction a = chooseTerciosAction(engine, s, random[engine.actor(s) == 1 ? 1 : 0], rng);
        QString error;
        if (!apply(a, &error)) {
            AutoResult r = summarize(s);
            r.reason = QStringLiteral("policy chose an illegal action: ") + error;
            r.actions = n;
            return r;
        }
        ++n;
    }
    AutoResult r = summarize(s);
    r.actions = n;
    if (!s.over())
        r.reason = QStringLiteral("action cap reached");
    return r;
}

} // namespace

AutoResult autoResolve(TerciosGame& game, bool random, quint64 policySeed, int maxActions) {
    return autoResolve(game, std::array<bool, 2>{random, random}, policySeed, maxActions);
}

AutoResult autoResolve(TerciosGame& game, std::array<bool, 2> random, quint64 policySeed, int maxActions) {
    return resolveWith(
        game.engine(), game.state(), [&](const TcAction& a, QString* error) { return game.apply(a, error); },
        random, policySeed, maxActions);
}

AutoResult resolveTercios(const TerciosEngine& engine, const TerciosState& scenario, quint64 seed,
                          std::array<bool, 2> random, int maxActions) {
    TerciosState s = scenario; // as TerciosGame's constructor starts it, without its log
    s.quiet = true;
    s.rng.reseed(seed);
    s.note(QStringLiteral("seed %1").arg(seed));
    engine.start(s);
    return resolveWith(
        engine, s, [&](const TcAction& a, QString* error) { return engine.apply(s, a, error); }, random, seed,
        maxActions);
}

AutoResult autoResolve(TerciosGame& game, Policy policy, quint64 policySeed, int maxActions) {
    switch (policy) {
    case Policy::Random:
        return autoResolve(game, true, policySeed, maxActions);
    case Policy::Simple:
    case Policy::Quick:
    case Policy::Tactical: // TVBD's tactical AI has no Tercios counterpart: Tercios' strongest policy plays
        break;
    }
    return autoResolve(game, false, policySeed, maxActions);
}

} // namespace wp::tactical
