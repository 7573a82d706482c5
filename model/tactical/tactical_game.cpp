#include "tactical_game.h"

#include "tvbd_ai.h"

#include <QVarLengthArray>

#include <algorithm>
#include <optional>

namespace wp::tactical {

TacticalGame::TacticalGame(const TvbdEngine& engine, const BattleState& scenario, quint64 seed)
    : m_engine(engine), m_state(scenario) {
    m_state.rng.reseed(seed);
    m_state.note(QStringLiteral("seed %1").arg(seed));
    m_engine.start(m_state);
}

bool TacticalGame::apply(const TAction& a, QString* error) {
    BattleState before = m_state;
    const quint64 rolls = m_state.rolls;
    const int actor = m_engine.actor(m_state);
    const QString text = actionText(m_state, a);
    if (!m_engine.apply(m_state, a, error))
        return false;
    m_actions << a;
    m_texts << text;
    if (m_state.rolls != rolls || m_engine.actor(m_state) != actor)
        m_undo.clear(); // a die was rolled or the player changed: no undo past this point
    else
        m_undo << std::pair{std::move(before), m_actions.size() - 1};
    return true;
}

bool TacticalGame::applyText(const QString& text, QString* error) {
    TAction a;
    if (!parseAction(m_state, text, &a, error))
        return false;
    return apply(a, error);
}

bool TacticalGame::undo() {
    if (m_undo.isEmpty())
        return false;
    auto [st, n] = m_undo.takeLast();
    m_state = std::move(st);
    m_actions.resize(n);
    m_texts.resize(n);
    return true;
}

// ---- policies --------------------------------------------------------------------------------------------

namespace {

// The enemy stands a unit measures its distance to (on the table, not Commanders), with half their diagonals.
struct Enemies {
    QVarLengthArray<const Pose*, 64> pose;
    QVarLengthArray<double, 64> half;
};
Enemies enemiesOf(const BattleState& s, int u) {
    Enemies en;
    for (const Unit& y : s.units) {
        if (y.side == s.units[u].side || !y.onTable() || y.type == UnitType::Commander)
            continue;
        en.pose.push_back(&y.pose);
        en.half.push_back(0.5 * std::sqrt(y.pose.w * y.pose.w + y.pose.d * y.pose.d));
    }
    return en;
}

// The distance from a stand at p to the nearest enemy (1e9 when none): the smallest exact distance. Each
// stand lies within half its diagonal of its centre, so an enemy whose centre is farther than the best
// distance so far plus both halves (and a margin far above rounding; compared squared) cannot come nearer and
// is not measured; the enemy with the nearest centre is measured first. Any order of measuring gives the same
// minimum, bit for bit (a distance capped at the best so far is either exact or a lower bound above it).
double nearestEnemy(const Enemies& en, const Pose& p) {
    const double rp = 0.5 * std::sqrt(p.w * p.w + p.d * p.d);
    const qsizetype n = en.pose.size();
    QVarLengthArray<double, 64> centre2(n);
    qsizetype first = -1;
    for (qsizetype k = 0; k < n; ++k) {
        const Vec2 d = en.pose[k]->c - p.c;
        centre2[k] = d.x * d.x + d.y * d.y;
        if (first < 0 || centre2[k] < centre2[first])
            first = k;
    }
    if (first < 0)
        return 1e9;
    double best = std::min(1e9, distance(p, *en.pose[first], 1e9));
    for (qsizetype k = 0; k < n; ++k) {
        const double reach = best + 1e-6 + rp + en.half[k];
        if (k != first && centre2[k] <= reach * reach)
            best = std::min(best, distance(p, *en.pose[k], best));
    }
    return best;
}

double nearestEnemy(const BattleState& s, int u, const Pose& p) {
    return nearestEnemy(enemiesOf(s, u), p);
}

double pHit(int need) {
    return need <= 0 ? 0 : (7.0 - need) / 6.0;
}

TAction simple(const TvbdEngine& e, const BattleState& s, const QList<TAction>& legal,
               const QList<Pose>* movePoses = nullptr) {
    const TAction end{};
    switch (s.step) {
    case Step::Move: {
        // One unit at a time, in order: Cannon unlimber; Commanders join a unit of their command; others
        // close on the nearest enemy (shooters already in range and units within 2 TUM of the enemy hold; the
        // defender waits until the enemy is near). A unit with no better move holds.
        int unit = -1;
        for (const TAction& a : legal)
            if (a.kind == TAction::Hold) {
                unit = a.unit;
                break;
            }
        if (unit < 0)
            return end;
        const Unit& x = s.units[unit];
        TAction hold;
        hold.kind = TAction::Hold;
        hold.unit = unit;
        double bestScore = 0.4;
        TAction best = hold;
        const double now = nearestEnemy(s, unit, x.pose);
        const bool shooterInRange = !isCavalry(x.type) && !e.shootTargets(s, unit).isEmpty();
        for (qsizetype k = 0; k < legal.size(); ++k) {
            const TAction& a = legal[k];
            if (a.kind != TAction::Move || a.unit != unit)
                continue;
            if (a.move.kind == MoveKind::Unlimber)
                return a;
            if (x.type == UnitType::Commander) {
                if (x.attachedTo < 0 && a.move.kind == MoveKind::Attach)
                    return a;
                continue;
            }
            if (x.type == UnitType::Cannon || shooterInRange || now <= 2.0)
                continue;
            if (x.side != s.attacker && now < 10)
                continue;
            const auto to = movePoses && k < movePoses->size() ? std::optional<Pose>((*movePoses)[k])
                                                               : e.checkMove(s, unit, a.move);
            if (!to)
                continue;
            const double after = std::max(1.0, nearestEnemy(s, unit, *to));
            const double score = now - after - (a.move.kind == MoveKind::Backward ? 5 : 0);
            if (score > bestScore) {
                bestScore = score;
                best = a;
            }
        }
        return best;
    }
    case Step::Bombard:
    case Step::Shoot: {
        double bestScore = 0;
        TAction best = end;
        QHash<int, bool> canCharge;
        for (const TAction& a : legal) {
            if (a.kind != TAction::Shoot)
                continue;
            QList<int> all{a.unit};
            all << a.secondary;
            bool holds = false;
            for (int u : all) {
                if (!isCavalry(s.units[u].type))
                    continue;
                if (!canCharge.contains(u))
                    canCharge[u] = !e.chargeOptions(s, u).isEmpty();
                holds = holds || canCharge[u];
            }
            if (holds)
                continue;
            double ev = 0;
            for (int u : all)
                ev += e.shootingDice(s, u, a.target, u == a.unit) / 6.0;
            const double score = ev + 0.2 / s.units[a.target].resolve;
            if (score > bestScore) {
                bestScore = score;
                best = a;
            }
        }
        return best;
    }
    case Step::Declare:
        for (const TAction& a : legal) {
            if (a.kind != TAction::Charge || s.units[a.unit].type == UnitType::Commander)
                continue;
            const Unit& x = s.units[a.unit];
            const Unit& t = s.units[a.target];
            if (t.type == UnitType::Cannon)
                return a;
            const Zone z = classify(t.pose, x.pose);
            if (z != Zone::Front)
                return a;
            const double mine = x.resolve * pHit(isCavalry(x.type) ? (t.type == UnitType::PikeShot ? 5 : 4)
                                                                   : (x.type == UnitType::PikeShot ? 5 : 6));
            const double theirs = t.resolve * pHit(t.type == UnitType::PikeShot || isCavalry(t.type) ? 5 : 6);
            if (mine >= theirs)
                return a;
        }
        for (const TAction& a : legal) // 14.1.4: then Commanders join a charging or locked unit
            if (a.kind == TAction::Charge && s.units[a.unit].type == UnitType::Commander)
                return a;
        return end;
    case Step::Evade:
        for (const TAction& a : legal)
            if (a.kind == TAction::Evade)
                return a;
        return legal.isEmpty() ? end : legal.first();
    case Step::Initiative:
    case Step::Over:
    case Step::Setup: // chooseSetupAction
        break;
    }
    return end;
}

// The move simple() would choose for a unit closing on the enemy (one it does not hold, not a Commander or
// Cannon): the first listed legal move with the highest score above 0.4; nullopt when none (it holds).
// `now`: the unit's distance to the nearest enemy.
std::optional<TAction> bestClosingMove(const TvbdEngine& e, const BattleState& s, int u, double now) {
    const QList<MoveOption> options = e.moveOptions(s, u);
    const Enemies enemies = enemiesOf(s, u);
    QVarLengthArray<std::pair<double, int>, 64> scored;
    for (qsizetype k = 0; k < options.size(); ++k) {
        const auto to = e.movePose(s, u, options[k].move);
        if (!to)
            continue;
        const double after = std::max(1.0, nearestEnemy(enemies, *to));
        const double score = now - after - (options[k].move.kind == MoveKind::Backward ? 5 : 0);
        if (score > 0.4)
            scored.push_back({score, int(k)});
    }
    const auto m = e.bestListedOption(s, u, options, std::span(scored.data(), scored.size()));
    if (!m)
        return std::nullopt;
    TAction a;
    a.kind = TAction::Move;
    a.unit = u;
    a.move = *m;
    return a;
}

} // namespace

std::optional<Policy> policyFromName(const QString& name) {
    for (Policy p : {Policy::Simple, Policy::Random, Policy::Tactical, Policy::Quick})
        if (name == policyName(p))
            return p;
    return std::nullopt;
}

QString policyName(Policy p) {
    switch (p) {
    case Policy::Random:
        return QStringLiteral("random");
    case Policy::Tactical:
        return QStringLiteral("tactical");
    case Policy::Quick:
        return QStringLiteral("quick");
    case Policy::Simple:
        break;
    }
    return QStringLiteral("simple");
}

TAction choosePolicyAction(const TvbdEngine& engine, const BattleState& s, Policy policy,
                           wp::rules::Rng& rng) {
    const TableReadScope scope(s); // a decision reads the state only
    if (policy == Policy::Tactical || policy == Policy::Quick)
        return chooseTacticalAction(engine, s, rng,
                                    policy == Policy::Quick ? TacticalLevel::Quick : TacticalLevel::Full);
    if (policy == Policy::Simple && s.step == Step::Move) {
        // Only the first unit still to act: the same actions legalActions lists for it (cheaper).
        QList<TAction> l;
        QList<Pose> poses;
        for (qsizetype i = 0; i < s.units.size() && l.isEmpty(); ++i) {
            const Unit& x = s.units[i];
            if (x.side != s.stepSide || !x.onTable() || x.actedThisStep)
                continue;
            if (x.type != UnitType::Commander && !(x.type == UnitType::Cannon && x.limbered)) {
                // A unit the simple policy holds anyway (see simple()): only whether it has a move matters. A
                // unit that closes on the enemy: simple() takes the first listed move with the best score
                // above its threshold. The options are scored on their end poses unchecked, best first (the
                // list order among equals), and only those are checked until one is legal: the same move,
                // with a few checks instead of one per option; without one it holds.
                const double now = nearestEnemy(s, int(i), x.pose);
                const bool holds = x.type == UnitType::Cannon || now <= 2.0 ||
                                   (x.side != s.attacker && now < 10) ||
                                   (!isCavalry(x.type) && !engine.shootTargets(s, int(i)).isEmpty());
                if (!holds)
                    if (const auto a = bestClosingMove(engine, s, int(i), now))
                        return *a;
                if (!engine.hasCandidateMove(s, int(i)))
                    continue;
                TAction h;
                h.kind = TAction::Hold;
                h.unit = int(i);
                return h;
            }
            for (const MoveSpec& m : engine.candidateMoves(s, int(i), &poses)) {
                TAction a;
                a.kind = TAction::Move;
                a.unit = int(i);
                a.move = m;
                l << a;
            }
            if (!l.isEmpty()) {
                TAction h;
                h.kind = TAction::Hold;
                h.unit = int(i);
                l << h;
            }
        }
        return l.isEmpty() ? TAction{} : simple(engine, s, l, &poses);
    }
    const QList<TAction> legal = engine.legalActions(s);
    if (legal.isEmpty())
        return {};
    if (policy == Policy::Random)
        return legal[rng.below(int(legal.size()))];
    if (s.step == Step::Setup)
        return chooseSetupAction(engine, s, rng);
    return simple(engine, s, legal);
}

AutoResult summarize(const BattleState& s) {
    AutoResult r;
    r.winner = s.over() ? s.winner : -1;
    r.turns = s.turn;
    r.reason = s.resultReason;
    for (const Unit& u : s.units) {
        const int w = u.large ? 2 : 1;
        if (u.status == UnitStatus::Routed)
            r.routed[u.side] += w;
        else if (u.status == UnitStatus::Eliminated)
            r.eliminated[u.side] += w;
        else if (u.status == UnitStatus::Casualty)
            r.commandersLost[u.side] += 1;
    }
    for (int i = 0; i < 2; ++i)
        r.lost[i] = s.lost[i];
    return r;
}

namespace {
// The auto-resolve loop on a live state `s` that `apply` changes (a TacticalGame's, or a bare one); each
// decision by the policy of the side to act.
template <typename Apply>
AutoResult resolveWith(const TvbdEngine& engine, const BattleState& s, Apply&& apply,
                       std::array<Policy, 2> policies, quint64 policySeed, int maxActions) {
    wp::rules::Rng rng(policySeed);
    int n = 0;
    while (!s.over() && n < maxActions) {
        const Policy policy =
            policies[0] == policies[1] ? policies[0] : policies[std::max(0, engine.actor(s))];
        const TAction a = choosePolicyAction(engine, s, policy, rng);
        QString err;
        if (!apply(a, &err)) {
            AutoResult r = summarize(s);
            r.reason = QStringLiteral("policy chose an illegal action: ") + err;
            r.winner = -1;
            return r;
        }
        ++n;
    }
    AutoResult r = summarize(s);
    r.actions = n;
    return r;
}
} // namespace

AutoResult autoResolve(TacticalGame& game, Policy policy, quint64 policySeed, int maxActions) {
    return autoResolve(game, std::array<Policy, 2>{policy, policy}, policySeed, maxActions);
}

AutoResult autoResolve(TacticalGame& game, std::array<Policy, 2> policies, quint64 policySeed,
                       int maxActions) {
    return resolveWith(
        game.engine(), game.state(), [&](const TAction& a, QString* error) { return game.apply(a, error); },
        policies, policySeed, maxActions);
}

AutoResult resolveTvbd(const TvbdEngine& engine, const BattleState& scenario, quint64 seed, Policy policy,
                       int maxActions) {
    return resolveTvbd(engine, scenario, seed, std::array<Policy, 2>{policy, policy}, maxActions);
}

AutoResult resolveTvbd(const TvbdEngine& engine, const BattleState& scenario, quint64 seed,
                       std::array<Policy, 2> policies, int maxActions) {
    BattleState s = scenario; // as TacticalGame's constructor starts it
    s.rng.reseed(seed);
    s.note(QStringLiteral("seed %1").arg(seed));
    engine.start(s);
    return resolveWith(
        engine, s, [&](const TAction& a, QString* error) { return engine.apply(s, a, error); }, policies,
        seed, maxActions);
}

} // namespace wp::tactical
