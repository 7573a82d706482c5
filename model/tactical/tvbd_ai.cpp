#include "tvbd_ai.h"

#include <QVarLengthArray>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

namespace wp::tactical {

namespace {

// ---- weights (resolve points) -------------------------------------------------------------------------
constexpr double kRout = 3.0;         // a rout beyond its last point: a lost unit (15.6), erosion (15.3)
constexpr double kChargeMargin = 0.1; // a charge must beat standing by this much
constexpr double kLineSlack = 0.75;   // how far a line unit may stand ahead of its command's pace line
// The attacker presses on (session 9): its advance weighs double and its line may be 1.5 TUM ragged. Without
// it the AI attacker was too slow to break a defender in 10 turns (AI against AI at Breitenfeld: 8.7 %
// attacker wins; with it 26.7 %; docs/tvbd.md "Strength").
constexpr double kAttackerPush = 2.0;
constexpr double kAttackerLineSlack = 1.5;
constexpr double kLinePenalty = 1.5;  // per TUM ahead of it
constexpr double kAdvance = 0.35;     // per TUM of progress towards the unit's aim (attacker's lines)
constexpr double kFlankAdvance = 0.3; // per TUM of progress towards a flank point (Horse)
constexpr double kMask = 0.8;         // standing in front of an own unlimbered Cannon
constexpr double kSupport = 0.4;      // supporting (14.5.6) an engaged front unit from its rear
// The attacker scores in full only its 2 move options with the highest bounds (more after each one found
// not listed): session 10, for speed; it also made the attacker stronger (docs/tvbd.md "Strength"). The
// defender scores every option that could win (with a budget it held where it should have given way).
constexpr int kAttackerScoreBudget = 2;
constexpr double kUrgentTurns = 12; // the attacker's last turns before the limit (15.6: it loses then)

// The quick level (TacticalLevel::Quick, docs/tvbd.md "The quick level"): the defender scores in full only
// its kQuickDefenderBudget options with the highest bounds within the enemy's reach per round (the attacker
// keeps kAttackerScoreBudget), and only the kQuickExactCharges charges with the best estimates
// (quickChargeValue) are weighed by their exact odds; a shooter's given-up charge and what standing risks
// are the estimates.
constexpr int kQuickDefenderBudget = 2;
constexpr int kQuickExactCharges = 2;

double pHitOn(int need) {
    return need >= 1 && need <= 6 ? (7.0 - need) / 6.0 : 0.0;
}

// P(at least k of n dice hit at p).
double atLeastSum(int n, double p, int k) {
    if (k <= 0)
        return 1;
    if (k > n)
        return 0;
    double sum = 0, term = std::pow(1 - p, n); // P(0)
    for (int i = 0; i <= n; ++i) {
        if (i >= k)
            sum += term;
        if (i < n)
            term = term * (n - i) / (i + 1) * p / (1 - p);
    }
    return sum;
}

// f(n, p, k), remembered per thread for the chances the policy asks about (p = 0, 1/6, ..., 1: a to-hit
// number's, pHitOn) and small counts: the same values, computed once (one table per f).
template <double (*f)(int, double, int)> double remembered(int n, double p, int k) {
    constexpr int kMax = 32;
    const int sixths = int(p * 6 + 0.5);
    if (n < 0 || n >= kMax || k < 0 || k >= kMax || sixths < 0 || sixths > 6 || p != sixths / 6.0)
        return f(n, p, k);
    thread_local std::array<double, 7 * kMax * kMax> value;
    thread_local std::array<bool, 7 * kMax * kMax> known{};
    const std::size_t i = std::size_t((sixths * kMax + n) * kMax + k);
    if (!known[i]) {
        value[i] = f(n, p, k);
        known[i] = true;
    }
    return value[i];
}

double atLeast(int n, double p, int k) {
    return remembered<atLeastSum>(n, p, k);
}

// E[min(hits, cap)] for n dice at p.
double expectedCappedSum(int n, double p, int cap) {
    double e = 0;
    for (int k = 1; k <= cap; ++k)
        e += atLeast(n, p, k);
    return e;
}

double expectedCapped(int n, double p, int cap) {
    return remembered<expectedCappedSum>(n, p, cap);
}

bool lineUnit(UnitType t) {
    return isInfantry(t);
}

struct Ctx {
    const TvbdEngine& e;
    const BattleState& s;
    int side = 0;
    Vec2 fwd{0, 1}; // towards the enemy
    bool attacker = false;
    bool moveFirst = false; // the enemy still moves before the charges (we are the active side)
    bool quick = false;     // TacticalLevel::Quick
    // 0..1: how pressed the attacker is by the turn limit (15.6: nobody broken by then, the attacker loses):
    // it rises over its last kUrgentTurns turns; always 0 for the defender.
    double urgency = 0;
    QList<int> mine, theirs; // combat units on the table
    struct Shape {
        Pose pose;
        Corners k;
        Box box;
        bool valid = false;
    };
    Ctx(const TvbdEngine& engine, const BattleState& st, TacticalLevel level) : e(engine), s(st) {
        quick = level == TacticalLevel::Quick;
        side = st.stepSide;
        attacker = side == st.attacker;
        moveFirst = side == st.active;
        if (attacker && st.turnLimit > 0)
            urgency = std::clamp(1.0 - (st.turnLimit - st.turn) / kUrgentTurns, 0.0, 1.0);
        Vec2 cm, ce;
        mine.reserve(st.units.size());
        theirs.reserve(st.units.size());
        for (qsizetype i = 0; i < st.units.size(); ++i) {
            const Unit& u = st.units[i];
            if (!u.onTable() || u.type == UnitType::Commander)
                continue;
            (u.side == side ? mine : theirs) << int(i);
            (u.side == side ? cm : ce) = (u.side == side ? cm : ce) + u.pose.c;
        }
        double dy = 0;
        if (!mine.isEmpty() && !theirs.isEmpty())
            dy = ce.y / double(theirs.size()) - cm.y / double(mine.size());
        if (std::abs(dy) < 1e-6)
            dy = side == 0 ? 1 : -1; // 10.6: side 0 deploys at y = 0
        fwd = Vec2{0, dy > 0 ? 1.0 : -1.0};
        k.reserve(std::size_t(st.units.size()));
        box.reserve(k.capacity());
        lockedMemo.assign(std::size_t(st.units.size()), -1);
        // Most stands have not moved since the last decision: their corners and boxes are remembered per
        // thread with the pose they were taken from (compared bit for bit: the same values).
        thread_local std::vector<Shape> last;
        if (last.size() < std::size_t(st.units.size()))
            last.resize(std::size_t(st.units.size()));
        for (qsizetype i = 0; i < st.units.size(); ++i) {
            const Pose& p = st.units[i].pose;
            Shape& sh = last[std::size_t(i)];
            if (!(sh.valid && std::memcmp(&sh.pose, &p, sizeof(Pose)) == 0)) {
                sh.pose = p;
                sh.k = p.corners();
                sh.box = boxOf(sh.k);
                sh.valid = true;
            }
            k.push_back(sh.k);
            box.push_back(sh.box);
        }
    }
    double adv(Vec2 p) const { return p.dot(fwd); }

    // The units' corners and their boxes, taken once per decision.
    std::vector<Corners> k;
    std::vector<Box> box;
    // e.locked(s, u), asked once per decision.
    bool locked(int u) const {
        signed char& l = lockedMemo[std::size_t(u)];
        if (l < 0)
            l = e.locked(s, u) ? 1 : 0;
        return l == 1;
    }
    // distance(a's pose, b's pose, cap), from the corners above (the same value).
    double dist(int a, int b, double cap) const {
        return distance(s.units[a].pose, k[std::size_t(a)], s.units[b].pose, k[std::size_t(b)], cap);
    }
    // Whether dist(a, b, cap) <= lim (lim below cap): the box gap, a lower bound of the distance, settles
    // most (with a margin for rounding).
    // The centres' distance less the circles in the stands (an upper bound, with a margin for rounding, as
    // PoseScorer::score) settles it too when within.
    bool within(int a, int b, double lim, double cap) const {
        if (!(boxGap(box[std::size_t(a)], box[std::size_t(b)]) <= lim + 1e-9))
            return false;
        if (distanceUpperBound(s.units[a].pose, s.units[b].pose) <= lim)
            return true;
        return dist(a, b, cap) <= lim;
    }
    // Whether any of `units` is within(u, ., lim, cap).
    bool anyWithin(int u, const QList<int>& units, double lim, double cap) const {
        for (int t : units)
            if (within(u, t, lim, cap))
                return true;
        return false;
    }

  private:
    mutable std::vector<signed char> lockedMemo;
};

// ---- values --------------------------------------------------------------------------------------------

// The worth of a hit count on a unit: its expected resolve lost plus the rout's worth.
double hitsWorth(const BattleState& s, int u, int dice, double p) {
    const int res = s.units[u].resolve;
    return expectedCapped(dice, p, res) + atLeast(dice, p, res) * routValue(s, u);
}

// A rough exchange of one melee round (move scoring only; charges are weighed by chargeOdds): the worth
// of a's expected hits on d less d's on a. aDice/dDice: the dice each rolls.
double exchange(const BattleState& s, int a, int aDice, int aNeed, int d, int dDice, int dNeed) {
    return hitsWorth(s, d, aDice, pHitOn(aNeed)) - hitsWorth(s, a, dDice, pHitOn(dNeed));
}

// The dice a unit fights with against an enemy in contact in the zone `where` (of the unit): 14.5.2.
int diceFacing(const BattleState& s, int u, Zone where) {
    const Unit& x = s.units[u];
    if (where == Zone::Rear)
        return 0;
    if (where == Zone::BehindFlank)
        return 1;
    return std::max(1, x.resolve);
}

// The quick level's estimate of u's charge on t, for u's side: one round's exchange at the to-hit numbers
// of u charging from where it stands (14.5.3), t fighting back with the dice of its zone of contact; a
// Cannon overrun (14.5.10) in full. No other unit counted.
double quickChargeValue(const Ctx& c, int u, int t);

} // namespace

double routValue(const BattleState& s, int u) {
    const Unit& x = s.units[u];
    const int w = x.large ? 2 : 1;
    const int left = TvbdEngine::armyBreakpoint(s.originalUnits[x.side]) - s.lost[x.side];
    // A rout that breaks the army (15.6) decides the battle.
    return kRout * w * (left <= w ? 4.0 : left <= 2 * w ? 1.5 : 1.0);
}

double meleeValue(const BattleState& s, const TvbdMeleeOdds& o, int side) {
    double v = 0;
    for (qsizetype k = 0; k < o.members.size(); ++k) {
        const int u = o.members[k];
        const double worth = o.expectedLoss[k] + o.pRout[k] * routValue(s, u);
        v += s.units[u].side == side ? -worth : worth;
    }
    if (o.members.isEmpty() && o.valid && o.target >= 0) { // a Cannon overrun (14.5.10)
        const double worth = o.lossTarget + routValue(s, o.target);
        v += s.units[o.target].side == side ? -worth : worth;
    }
    return v;
}

namespace {

// ---- charges (5.1) ---------------------------------------------------------------------------------------

double quickChargeValue(const Ctx& c, int u, int t) {
    const Unit& x = c.s.units[u];
    const Unit& y = c.s.units[t];
    if (y.type == UnitType::Cannon)
        return y.resolve + routValue(c.s, t);
    const Zone uInT = classify(y.pose, c.k[std::size_t(u)]), tInU = classify(x.pose, c.k[std::size_t(t)]);
    const int myNeed = TvbdEngine::meleeToHitOf(
        x.type, true, y, [&] { return c.e.inDifficult(c.s, u); }, [&] { return uInT; });
    const int theirNeed =
        x.type == UnitType::Cannon
            ? 7
            : TvbdEngine::meleeToHitOf(
                  y.type, y.charged, x, [&] { return c.e.inDifficult(c.s, t); }, [&] { return tInU; });
    return exchange(c.s, u, std::max(1, x.resolve), myNeed, t, diceFacing(c.s, t, uInT), theirNeed);
}

// What standing costs: the worst charge an enemy that can reach the unit may make on it (their choice).
double standValue(const Ctx& c, int u) {
    double worst = 0;
    for (int t : c.theirs) {
        const Unit& y = c.s.units[t];
        if (!isFormed(y.type) || y.shotMarker || y.movedMarker || y.chargeTarget >= 0 ||
            !c.within(u, t, 3.0 + 1e-6, 3.2) || c.locked(t))
            continue;
        if (!c.e.chargePlan(c.s, t, u))
            continue;
        const double v =
            c.quick ? -quickChargeValue(c, t, u) : meleeValue(c.s, chargeOdds(c.e, c.s, t, u), c.side);
        worst = std::min(worst, v);
    }
    return worst;
}

// Whether a unit of the side could have a charge (5.1) to weigh: formed, no marker, no charge declared and
// an enemy (not a Commander) whose stand's box lies within 3 TUM of its own (the box gap bounds the distance
// from below, so no chargeOptions target is missed).
bool mayDeclare(const Ctx& c) {
    for (int u : c.mine) {
        const Unit& x = c.s.units[u];
        if (!isFormed(x.type) || x.shotMarker || x.movedMarker || x.chargeTarget >= 0)
            continue;
        for (int t : c.theirs)
            if (boxGap(c.box[std::size_t(u)], c.box[std::size_t(t)]) <= 3 + 1e-6)
                return true;
    }
    return false;
}

TAction chooseCharge(const Ctx& c, const QList<TAction>& legal) {
    double best = 0;
    TAction pick{};
    QHash<int, double> stand;
    // The quick level weighs only its kQuickExactCharges charges with the best estimates (ties in list
    // order).
    QList<bool> weigh(legal.size(), true);
    if (c.quick) {
        QVarLengthArray<std::pair<double, int>, 32> est;
        for (qsizetype k = 0; k < legal.size(); ++k)
            if (legal[k].kind == TAction::Charge && c.s.units[legal[k].unit].type != UnitType::Commander)
                est.push_back({-quickChargeValue(c, legal[k].unit, legal[k].target), int(k)});
        std::stable_sort(est.begin(), est.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        for (qsizetype i = kQuickExactCharges; i < est.size(); ++i)
            weigh[est[i].second] = false;
    }
    for (qsizetype k = 0; k < legal.size(); ++k) {
        const TAction& a = legal[k];
        if (a.kind != TAction::Charge || c.s.units[a.unit].type == UnitType::Commander || !weigh[k])
            continue;
        const TvbdMeleeOdds o = chargeOdds(c.e, c.s, a.unit, a.target);
        if (!o.valid)
            continue;
        double v = meleeValue(c.s, o, c.side);
        if (!stand.contains(a.unit))
            stand[a.unit] = c.moveFirst ? standValue(c, a.unit) : 0.0; // the reactive side declares last
        v -= stand[a.unit] + kChargeMargin - 1.5 * c.urgency;          // a pressed attacker takes worse odds
        if (v > best) {
            best = v;
            pick = a;
        }
    }
    return pick;
}

// ---- shooting (3.2, 4.2, 1.7) ----------------------------------------------------------------------------

double shotValue(const Ctx& c, const TAction& a) {
    int dice = c.e.shootingDice(c.s, a.unit, a.target, true);
    for (int x : a.secondary)
        dice += c.e.shootingDice(c.s, x, a.target, false);
    return hitsWorth(c.s, a.target, dice, 1.0 / 6); // 12.2.9: every die hits on a 6
}

// The best charge a unit could still make this turn (what shooting would give up, 12.2.1).
double chargeWorth(const Ctx& c, int u, QHash<int, double>* memo) {
    if (memo->contains(u))
        return memo->value(u);
    double best = 0;
    const Unit& x = c.s.units[u];
    if (c.quick) {
        // The quick level: the estimate of a charge on each enemy within 3 TUM in the unit's front (no
        // charge plan asked).
        if (isFormed(x.type) && !x.movedMarker && c.s.step == Step::Shoot && !c.locked(u))
            for (int t : c.theirs)
                if (c.within(u, t, 3 + 1e-6, 3.2) && inFront(x.pose, c.k[std::size_t(t)]))
                    best = std::max(best, quickChargeValue(c, u, t));
        memo->insert(u, best);
        return best;
    }
    if (isFormed(x.type) && !x.movedMarker && c.s.step == Step::Shoot && !c.locked(u))
        for (const auto& [t, plan] : c.e.chargeOptions(c.s, u)) {
            (void)plan;
            best = std::max(best, meleeValue(c.s, chargeOdds(c.e, c.s, u, t), c.side));
        }
    memo->insert(u, best);
    return best;
}

TAction chooseShot(const Ctx& c, const QList<TAction>& legal) {
    QHash<int, double> solo, charge; // a shooter's best shot alone; its best charge
    for (const TAction& a : legal)
        if (a.kind == TAction::Shoot && a.secondary.isEmpty())
            solo[a.unit] = std::max(solo.value(a.unit), shotValue(c, a));
    // A shot's value: its hits' worth less what its shooters give up, the primary its best charge this
    // turn, each secondary the more of 0.9 of its best shot alone and its best charge. Without the charges
    // (never negative) that is an upper bound: the shots are taken best bound first (ties in list order), and
    // once a bound is no more than the best value so far, no shot left can win; a shot's charges are weighed
    // one by one only while it still could.
    struct Shot {
        double bound;
        int k;
        double shot;
    };
    QVarLengthArray<Shot, 64> shots;
    for (qsizetype k = 0; k < legal.size(); ++k) {
        const TAction& a = legal[k];
        if (a.kind != TAction::Shoot)
            continue;
        const double shot = shotValue(c, a);
        double bound = shot;
        for (int x : a.secondary)
            bound -= solo.value(x) * 0.9;
        shots.push_back({bound, int(k), shot});
    }
    std::stable_sort(shots.begin(), shots.end(),
                     [](const Shot& a, const Shot& b) { return a.bound > b.bound; });
    // The best value, ties (within 1e-9) to the first in list order.
    double best = 0;
    int pick = -1;
    for (const Shot& sh : shots) {
        if (!(sh.bound > best - 1e-9) || (pick < 0 && !(sh.bound > 1e-9)))
            break;
        const TAction& a = legal[sh.k];
        auto better = [&](double v) {
            return v > best + 1e-9 || (pick >= 0 && v > best - 1e-9 && sh.k < pick);
        };
        double v = sh.bound - chargeWorth(c, a.unit, &charge);
        for (qsizetype i = 0; i < a.secondary.size() && better(v); ++i) {
            const int x = a.secondary[i];
            v -= std::max(0.0, chargeWorth(c, x, &charge) - solo.value(x) * 0.9);
        }
        if (better(v)) {
            best = v;
            pick = sh.k;
        }
    }
    return pick < 0 ? TAction{} : legal[pick];
}

// ---- evades (5.3)
// ------------------------------------------------------------------------------------------

TAction chooseEvade(const Ctx& c, const QList<TAction>& legal) {
    for (const TAction& st : legal) {
        if (st.kind != TAction::Stand)
            continue;
        double v = 0;
        for (qsizetype i = 0; i < c.s.units.size(); ++i)
            if (c.s.units[i].chargeTarget == st.unit && c.s.units[i].side != c.side)
                v += meleeValue(c.s, chargeOdds(c.e, c.s, int(i), st.unit), c.side);
        if (v >= 0)
            return st;
        // The evade that ends farthest from the enemy (legal already: 14.3).
        TAction best = st;
        double far = -1;
        for (const TAction& a : legal) {
            if (a.kind != TAction::Evade || a.unit != st.unit)
                continue;
            const auto p = c.e.checkMove(c.s, a.unit, a.move, nullptr, true);
            if (!p)
                continue;
            double near = 1e9;
            for (int t : c.theirs)
                near = std::min(near, distance(*p, c.s.units[t].pose, 20));
            if (near > far) {
                far = near;
                best = a;
            }
        }
        return best;
    }
    return legal.isEmpty() ? TAction{} : legal.first();
}

// ---- movement (3.1, 4.1) ---------------------------------------------------------------------------------

// The line a command's line units keep this step (12.1: the slowest sets the pace): each unit not yet
// moved could reach its own position plus its move; those that moved stay where they are. Units in
// contact, or within charge reach of the enemy, do not hold the line back.
double paceLine(const Ctx& c, int command, int self) {
    double line = 1e9;
    for (int u : c.mine) {
        const Unit& x = c.s.units[u];
        if (x.command != command || !lineUnit(x.type) || u == self)
            continue;
        if (c.anyWithin(u, c.theirs, 3.0, 4))
            continue;
        const double allow = x.actedThisStep ? 0.0 : c.e.rules().type(x.type).move;
        line = std::min(line, c.adv(x.pose.c) + allow);
    }
    return line;
}

// The enemy a line unit advances on: the nearest to its lane (across the table weighs double).
int laneAim(const Ctx& c, int u) {
    const Vec2 p = c.s.units[u].pose.c;
    int best = -1;
    double bestKey = 1e9;
    for (int t : c.theirs) {
        const Vec2 d = c.s.units[t].pose.c - p;
        const double along = d.dot(c.fwd), across = std::abs(d.x * c.fwd.y - d.y * c.fwd.x);
        const double key = 2 * across + std::abs(along);
        if (key < bestKey) {
            bestKey = key;
            best = t;
        }
    }
    return best;
}

// Where Horse wants to be: beside or behind an enemy (its flank or rear zone, 7.2.6), the enemy worth most
// for the way there. Returns the point and the enemy.
std::pair<Vec2, int> flankAim(const Ctx& c, int u) {
    const Unit& x = c.s.units[u];
    std::pair<Vec2, int> best{x.pose.c, -1};
    double bestScore = 0;
    for (int t : c.theirs) {
        const Unit& y = c.s.units[t];
        double worth = y.type == UnitType::Cannon                                       ? 3.0
                       : y.type == UnitType::Shot || y.type == UnitType::Rabble         ? 2.0
                       : y.type == UnitType::Dragoons || y.type == UnitType::LightHorse ? 1.8
                       : y.type == UnitType::Horse                                      ? 1.5
                                                                                        : 1.2;
        worth += 0.5 * (y.startResolve - y.resolve);
        if (c.locked(t))
            worth += 0.8; // a flank charge on a unit already fighting
        const Vec2 f = y.pose.forward(), r = y.pose.right();
        for (const Vec2& pt :
             {y.pose.c + r * (y.pose.w / 2 + 2.5) - f * 0.5, y.pose.c - r * (y.pose.w / 2 + 2.5) - f * 0.5,
              y.pose.c - f * (y.pose.d / 2 + 2.5)}) {
            if (pt.x < 1 || pt.y < 1 || pt.x > c.s.tableW - 1 || pt.y > c.s.tableD - 1)
                continue;
            const double d = (pt - x.pose.c).length();
            const double score = worth / (1 + d / 6);
            if (score > bestScore) {
                bestScore = score;
                best = {pt, t};
            }
        }
    }
    return best;
}

// The scoring of a unit's end pose: threats and opportunities against the enemy near it.
struct PoseScorer {
    const Ctx& c;
    BattleState scratch; // the state with the unit at the pose scored (for the engine's to-hit, 14.5.3)
    int u;
    // An enemy within reach of the unit this turn, with what score() asks of it that does not depend on the
    // pose scored (taken once per unit, not once per pose).
    struct Near {
        int t = -1;
        Corners k;        // its corners
        Box box;          // their box
        bool canShoot;    // it may shoot next (range > 0, no marker, not a limbered Cannon), unless locked
        double range;     // its shooting range
        bool mayCharge;   // formed, no marker: it may charge the unit
        double reachThem; // how far its charge reaches
        bool chargeable;  // the unit (formed) may charge it (not a Commander)
        double need = -1; // the largest distance at which any of the above matters (-1: none)
        mutable signed char diff = -1; // whether it is in difficult terrain (7.2.5), when asked (-1: not yet)
        double chanceCap = 0; // chargeable: no charge on it from any pose is worth more to score() than this
    };
    QVarLengthArray<Near, 32> near;
    bool fort = false;   // the table has field fortifications (16.5)
    quint64 terrain = 0; // the scratch table's terrain hash, once a score's read scope has checked it
    PoseScorer(const Ctx& ctx, int unit) : c(ctx), scratch(ctx.s), u(unit) {
        scratch.log.clear();
        for (const TerrainFeature& f : c.s.terrain)
            fort = fort || f.type == QLatin1String("fortification");
        const Unit& x = c.s.units[u];
        // How far a change of direction can carry a point of the stand beyond its move: 5 TUM for the stands
        // of the data (at most 2x2); for a larger one (an owner's edit of tvbd.json) twice its diagonal,
        // which bounds any turn about its centre or a corner.
        const double turning = x.pose.w > 2 + 1e-9 || x.pose.d > 2 + 1e-9
                                   ? std::max(5.0, 2 * std::hypot(x.pose.w, x.pose.d))
                                   : 5.0;
        const double reach = c.e.rules().type(x.type).move + 3 + 4 + turning;
        for (int t : c.theirs) {
            const Unit& y = c.s.units[t];
            // Only a Cannon's fire reaches beyond 7 TUM (its range is the table's; charges reach 3 + half a
            // move, other fire 4 TUM): any other enemy farther than `reach` (the unit's move, the turning
            // and 7 TUM) is beyond what score() asks about it from every end pose, so the box gap (a lower
            // bound of the distance) settles it.
            if (y.type == UnitType::Cannon
                    ? !c.within(u, t, reach, reach + 1)
                    : boxGap(c.box[std::size_t(u)], c.box[std::size_t(t)]) > reach + 1e-9)
                continue;
            Near n;
            n.t = t;
            n.k = c.k[std::size_t(t)];
            n.box = c.box[std::size_t(t)];
            n.range = c.e.rules().type(y.type).range;
            n.canShoot =
                n.range > 0 && !y.shotMarker && !y.movedMarker && !(y.type == UnitType::Cannon && y.limbered);
            n.mayCharge = isFormed(y.type) && !y.shotMarker && !y.movedMarker;
            n.reachThem = 3 + (c.moveFirst ? c.e.rules().type(y.type).move * 0.5 : 0);
            n.chargeable = isFormed(x.type) && y.type != UnitType::Commander;
            if (n.canShoot)
                n.need = std::max(n.need, n.range);
            if (n.mayCharge)
                n.need = std::max(n.need, n.reachThem);
            if (n.chargeable) {
                n.need = std::max(n.need, 3.0);
                // score()'s value of the charge: its own hits at the best to-hit number its type can have
                // (meleeToHit, 14.5.3: charging, in open terrain, from the rear) and nothing taken back.
                const int bestNeed = TvbdEngine::meleeToHitOf(
                    x.type, true, y, [] { return false; }, [] { return Zone::Rear; });
                n.chanceCap = (y.type == UnitType::Cannon
                                   ? y.resolve + routValue(c.s, t)
                                   : hitsWorth(c.s, t, std::max(1, x.resolve), pHitOn(bestNeed))) *
                              (c.moveFirst ? 0.5 : 0.9);
            }
            near.push_back(n);
        }
    }

    // An upper bound of score(p, .) from p's box alone: the threats are never negative, the chance of a
    // charge is at most the cap of an enemy within 3 TUM (the box gap bounds the distance from below).
    double bound(const Box& pb) const {
        double b = 0;
        for (const Near& n : near)
            if (n.chargeable && boxGap(pb, n.box) <= 3 + 1e-6)
                b = std::max(b, n.chanceCap);
        return b;
    }

    // Whether score(p, .) is 0 from p's box alone: beyond every enemy's reach.
    bool outOfReach(const Box& pb) const {
        for (const Near& n : near)
            if (n.need >= 0 && boxGap(pb, n.box) <= n.need + 1e-9)
                return false;
        return true;
    }

    // `fear` weighs the threats (1: in full).
    double score(const Pose& p, double fear) {
        // The unit moves about on the scratch table; the terrain stays (checked by the first score's scope).
        const TerrainReadScope scope(scratch, terrain);
        const Unit& x = c.s.units[u];
        const Pose saved = scratch.units[u].pose;
        scratch.units[u].pose = p;
        const Corners kp = p.corners();
        const Box pb = boxOf(kp);
        signed char myDiff = -1; // whether the unit at p is in difficult terrain, when asked
        double threat = 0, chance = 0;
        for (const Near& n : near) {
            // The box gap is a lower bound of the distance (and is the distance returned beyond the cap): an
            // enemy farther than every test below asks about (with a margin for rounding) is skipped
            // unmeasured.
            const double gap = boxGap(pb, n.box);
            if (n.need < 0 || gap > n.need + 1e-9)
                continue;
            const int t = n.t;
            const Unit& y = c.s.units[t];
            // The distance (capped at 12) is only compared with limits: the box gap bounds it from below, the
            // centres' distance less the circles in the stands from above (with margins for rounding); it is
            // measured only when neither settles a comparison.
            const double upper = distanceUpperBound(p, y.pose);
            double measured = -1;
            auto within = [&](double lim) {
                if (upper <= lim)
                    return true;
                if (gap > lim + 1e-9)
                    return false;
                if (measured < 0)
                    measured = distance(p, kp, y.pose, n.k, 12);
                return measured <= lim;
            };
            // Where the unit stands seen from the enemy, and the enemy seen from the unit: classified only
            // when a test below reads them.
            std::optional<Zone> meInTheirsZ, theyInMineZ;
            auto meInTheirs = [&] {
                if (!meInTheirsZ)
                    meInTheirsZ = classify(y.pose, kp);
                return *meInTheirsZ;
            };
            auto theyInMine = [&] {
                if (!theyInMineZ)
                    theyInMineZ = classify(p, n.k);
                return *theyInMineZ;
            };
            // c.e.meleeToHit(scratch, a, b) with a's `charged` flag as given, a and b the unit and the enemy
            // (`mine`: the unit attacks), from what is known here: the zone of a seen from b and whether a is
            // in difficult terrain, each taken when asked (the same answers). With field fortifications
            // (16.5.5) the engine's own.
            auto toHit = [&](bool mine, bool charged) {
                const int a = mine ? u : t, b = mine ? t : u;
                if (fort) {
                    scratch.units[a].charged = charged;
                    const int need = c.e.meleeToHit(scratch, a, b);
                    scratch.units[a].charged = c.s.units[a].charged;
                    return need;
                }
                return TvbdEngine::meleeToHitOf(
                    c.s.units[a].type, charged, c.s.units[b],
                    [&] {
                        if (mine) {
                            if (myDiff < 0)
                                myDiff = c.e.inDifficult(scratch, p) ? 1 : 0;
                            return myDiff == 1;
                        }
                        if (n.diff < 0)
                            n.diff = c.e.inDifficult(scratch, t) ? 1 : 0;
                        return n.diff == 1;
                    },
                    [&] { return mine ? meInTheirs() : theyInMine(); });
            };
            // Their shooting next (the other side shoots right after this move, 9). Whether the enemy is
            // locked in melee (then it cannot shoot) is asked last, of the enemies in range only.
            if (n.canShoot && y.type == UnitType::Cannon) {
                // A Cannon shoots into its front zone only (unlimited range): classify's first test alone.
                if (within(n.range) && inFront(y.pose, kp) && !c.locked(t))
                    threat += hitsWorth(c.s, u, std::max(1, y.resolve), 1.0 / 6) * 0.7;
            } else if (n.canShoot && within(n.range) && meInTheirs() != Zone::Rear &&
                       meInTheirs() != Zone::None && !c.locked(t)) {
                const int dice = meInTheirs() == Zone::Front ? std::max(1, y.resolve) : 1;
                threat += hitsWorth(c.s, u, dice, 1.0 / 6);
            }
            // Their charge on the unit (5.1): from their front, within 3 TUM (more if they move first).
            if (n.mayCharge && within(n.reachThem) &&
                (meInTheirs() == Zone::Front || meInTheirs() == Zone::FrontFlank)) {
                const int theirNeed = toHit(false, true);
                const int myNeed = x.type == UnitType::Cannon ? 7 : toHit(true, false);
                const double w = within(3) ? 1.0 : 0.5;
                const double v = x.type == UnitType::Cannon
                                     ? -(x.resolve + routValue(c.s, u)) // overrun (14.5.10)
                                     : exchange(c.s, t, std::max(1, y.resolve), theirNeed, u,
                                                diceFacing(c.s, u, theyInMine()), myNeed);
                threat += std::max(0.0, v) * w;
            }
            // Our charge from here (5.1): the enemy within 3 TUM in our front, its zone of contact.
            if (n.chargeable && within(3) &&
                (theyInMine() == Zone::Front || theyInMine() == Zone::FrontFlank)) {
                double v;
                if (y.type == UnitType::Cannon) {
                    v = y.resolve + routValue(c.s, t);
                } else {
                    const int myNeed = toHit(true, true);
                    const int theirNeed = toHit(false, y.charged);
                    v = exchange(c.s, u, std::max(1, x.resolve), myNeed, t, diceFacing(c.s, t, meInTheirs()),
                                 theirNeed);
                }
                chance = std::max(chance, v * (c.moveFirst ? 0.5 : 0.9));
            }
        }
        scratch.units[u].pose = saved;
        if (terrain == 0)
            terrain = scope.checked();
        return chance - fear * threat;
    }
};

// The formation terms: an own unlimbered Cannon masked, support given to an engaged friend (14.5.6). The
// friends and what does not depend on the pose scored are taken once per unit.
struct Formation {
    struct Friend {
        const Pose* pose;
        Corners k;
        Box box;
        bool cannon;  // an unlimbered Cannon (masking matters)
        bool support; // a line unit near the enemy (within 6 TUM): supporting it counts, if the unit is one
    };
    QVarLengthArray<Friend, 32> friends;
    Formation(const Ctx& c, int u) {
        const Unit& x = c.s.units[u];
        for (int f : c.mine) {
            if (f == u)
                continue;
            const Unit& y = c.s.units[f];
            Friend fr{&y.pose, c.k[std::size_t(f)], c.box[std::size_t(f)],
                      y.type == UnitType::Cannon && !y.limbered, false};
            if (lineUnit(x.type) && lineUnit(y.type))
                fr.support = c.anyWithin(f, c.theirs, 6, 7);
            if (fr.cannon || fr.support)
                friends.push_back(fr);
        }
    }
    // An upper bound of value(p) from p's box alone: the support of every friend within 4 TUM, no masking.
    double bound(const Box& pb) const {
        double v = 0;
        for (const Friend& y : friends)
            if (y.support && boxGap(y.box, pb) <= 4.0 + 1e-9)
                v += kSupport;
        return v;
    }
    double value(const Pose& p) const {
        double v = 0;
        const Corners kp = p.corners();
        const Box pb = boxOf(kp);
        for (const Friend& y : friends) {
            if (y.cannon && (p.c - y.pose->c).length() < 16 && inFront(*y.pose, kp)) // classify(*y.pose, kp)
                v -= kMask;
            // The distance within 4 TUM: the centres' distance less the circles in the stands bounds it from
            // above (with a margin for rounding, as PoseScorer::score), so it is measured only when that does
            // not settle it.
            if (y.support && boxGap(y.box, pb) <= 4.0 + 1e-9 &&
                (distanceUpperBound(p, *y.pose) <= 4.0 || distance(*y.pose, y.k, p, kp, 4.5) <= 4.0) &&
                inRear(*y.pose, kp))
                v += kSupport;
        }
        return v;
    }
};

// A unit's move: each listed option scored on its end pose (unchecked, movePose), then checked best first
// until one is legal (a fallback only when the move it stands in for is not, as candidateMoves lists).
TAction chooseMoveFor(const Ctx& c, int u) {
    const Unit& x = c.s.units[u];
    TAction hold;
    hold.kind = TAction::Hold;
    hold.unit = u;
    const QList<MoveOption> options = c.e.moveOptions(c.s, u);
    // 12.1.13: a locked unit turns to face an enemy on its flank or rear when it can.
    for (const MoveOption& o : options)
        if (o.move.kind == MoveKind::Face && c.e.checkMove(c.s, u, o.move)) {
            TAction a;
            a.kind = TAction::Move;
            a.unit = u;
            a.move = o.move;
            return a;
        }
    if (c.locked(u))
        return hold;

    PoseScorer scorer(c, u);
    const Formation formation(c, u);
    const bool horse = isCavalry(x.type);
    // Objectives: a line unit advances on the enemy in its lane (the attacker always; the defender only
    // where the enemy is close), keeping the command's line; Horse makes for a flank point.
    Vec2 aimPt = x.pose.c;
    int aim = -1;
    double aimWeight = 0;
    if (horse) {
        const auto [pt, t] = flankAim(c, u);
        aimPt = pt;
        aim = t;
        aimWeight = t < 0 ? 0 : c.attacker ? kFlankAdvance : 0.6 * kFlankAdvance;
        if (!c.attacker && t >= 0 && (pt - x.pose.c).length() > 14)
            aimWeight = 0; // the defender's Horse waits for the enemy to come near
    } else {
        aim = laneAim(c, u);
        if (aim >= 0) {
            const Unit& y = c.s.units[aim];
            const Vec2 d = y.pose.c - x.pose.c;
            aimPt = y.pose.c - d * (2.5 / std::max(2.5, d.length()));
            const bool close = c.within(u, aim, 8, 9);
            aimWeight = c.attacker || close ? kAdvance : 0;
        }
    }
    const double line = lineUnit(x.type) ? paceLine(c, x.command, u) : 1e9;
    aimWeight *= (c.attacker ? kAttackerPush : 1.0) * (1 + 2 * c.urgency);
    const double slack = c.attacker ? kAttackerLineSlack : kLineSlack;
    // The pose's value: `v` is its score (or a bound of it) plus its formation value; the objectives' terms.
    auto rest = [&](const Pose& p, double v) {
        if (aimWeight > 0) {
            v -= aimWeight * (p.c - aimPt).length();
            if (aim >= 0) {
                const Vec2 to = c.s.units[aim].pose.c - p.c;
                const double len = to.length();
                if (len > 1e-6)
                    v += 0.3 * to.dot(p.forward()) / len; // face the aim (a charge goes ahead, 14.1)
            }
        }
        const double ahead = c.adv(p.c) - line - slack;
        if (ahead > 0)
            v -= kLinePenalty * (1 - 0.7 * c.urgency) * ahead;
        if (c.s.units[u].type == UnitType::Cannon)
            v -= 0.5; // a limbered Cannon moves only when it must
        return v;
    };
    const double fear = 1 - 0.6 * c.urgency;
    const double stay = rest(x.pose, scorer.score(x.pose, fear) + formation.value(x.pose));

    // Each option's end pose (unchecked, movePose) with a bound of its value from the cheap terms,
    // PoseScorer::bound and Formation::bound; the full score is taken only while an option's bound could
    // still put it ahead of the best scored one. The options are then taken best first (ties in list order)
    // and checked until one is legal, a fallback only when the move it stands in for is not: the same move as
    // scoring every option and TvbdEngine::bestListedOption.
    struct Opt {
        int k;
        Pose p;
        double bound, v = 0;
        bool scored = false, done = false;
    };
    QVarLengthArray<Opt, 64> opts;
    // The kinds of move checkMove refuses this unit whatever the table (12.1.5: wheeling only; 16.3:
    // inferior units do not oblique, sidestep or move backward) are not scored.
    const bool wheelOnly = c.e.rules().type(x.type).wheelOnly || x.quality == Quality::Raw ||
                           (x.type == UnitType::Cannon && x.limbered);
    for (qsizetype k = 0; k < options.size(); ++k) {
        const MoveSpec& m = options[k].move;
        if (m.kind == MoveKind::Unlimber || m.kind == MoveKind::Face)
            continue;
        if ((wheelOnly && m.kind != MoveKind::Straight && m.kind != MoveKind::Wheel) ||
            (x.quality == Quality::Inferior &&
             (m.kind == MoveKind::Oblique || m.kind == MoveKind::Sideways || m.kind == MoveKind::Backward)))
            continue;
        const auto p = c.e.movePose(c.s, u, m);
        if (!p)
            continue;
        const Box pb = boxOf(p->corners());
        double b = rest(*p, scorer.bound(pb) + formation.bound(pb));
        if (m.kind == MoveKind::Backward)
            b -= 0.3;
        b += 1e-9; // rounding
        if (b > stay + 0.05)
            opts.push_back({int(k), *p, b});
    }
    TvbdEngine::ListedCheck check(c.e, c.s, u, options);
    // The attacker scores only kAttackerScoreBudget options in full, best bound first; each option found not
    // listed lets as many more be scored.
    int perRound = c.attacker ? kAttackerScoreBudget : int(opts.size());
    // The quick level: the defender too scores only a few options in full, not counting those out of every
    // enemy's reach (their score is 0 at once).
    const bool defenderBudget = c.quick && !c.attacker;
    if (defenderBudget)
        perRound = std::min(perRound, kQuickDefenderBudget);
    int budget = perRound;
    while (true) {
        Opt* best = nullptr; // the best scored option not yet taken
        Opt* open = nullptr; // the unscored option with the highest bound
        for (Opt& o : opts) {
            if (o.done)
                continue;
            if (o.scored ? !best || o.v > best->v : !open || o.bound > open->bound)
                (o.scored ? best : open) = &o;
        }
        if (budget <= 0)
            open = nullptr;
        if (open && (!best || open->bound >= best->v)) {
            if (!(defenderBudget && scorer.outOfReach(boxOf(open->p.corners()))))
                --budget;
            // A moved marker: no shooting or charging this turn (12.1.5).
            const double back = options[open->k].move.kind == MoveKind::Backward ? 0.3 : 0.0;
            const double score = scorer.score(open->p, fear);
            open->scored = true;
            // The formation's value is taken only when its bound could still lift the option above standing.
            if (!(rest(open->p, score + formation.bound(boxOf(open->p.corners()))) - back >
                  stay + 0.05 - 1e-9)) {
                open->done = true;
                continue;
            }
            const double v = rest(open->p, score + formation.value(open->p)) - back;
            open->v = v;
            open->done = !(v > stay + 0.05);
            continue;
        }
        if (!best)
            return hold;
        best->done = true;
        budget = std::max(budget, 0) + perRound;
        if (check.listed(best->k)) {
            TAction a;
            a.kind = TAction::Move;
            a.unit = u;
            a.move = options[best->k].move;
            return a;
        }
    }
}

// A Cannon: unlimber at once (12.1.7); unlimbered, pivot (12.1.8) when nothing is in its front and a pivot
// brings an enemy into it unmasked; else hold.
TAction chooseCannon(const Ctx& c, int u, const QList<TAction>& legal) {
    const Unit& x = c.s.units[u];
    TAction hold;
    hold.kind = TAction::Hold;
    hold.unit = u;
    if (x.limbered) {
        for (const TAction& a : legal)
            if (a.move.kind == MoveKind::Unlimber)
                return a;
        return chooseMoveFor(c, u);
    }
    if (!c.e.shootTargets(c.s, u).isEmpty())
        return hold;
    // Enemies in the front zone now: one will be a target once the friend masking it moves on.
    TAction best = hold;
    double bestD = 1e9;
    auto nearestInFront = [&](const Pose& p) {
        double nearest = 1e9;
        for (int f : c.mine)
            if (f != u && (c.s.units[f].pose.c - p.c).length() < 10 && inFront(p, c.s.units[f].pose))
                return 1e9; // masked by a friend close in front
        for (int t : c.theirs)
            if (inFront(p, c.s.units[t].pose))
                nearest = std::min(nearest, (c.s.units[t].pose.c - p.c).length());
        return nearest;
    };
    bestD = nearestInFront(x.pose) < 1e9 ? 0 : 1e9;
    for (const TAction& a : legal) {
        if (a.kind != TAction::Move || a.move.kind != MoveKind::Pivot)
            continue;
        const auto p = c.e.checkMove(c.s, u, a.move);
        if (!p)
            continue;
        const double d = nearestInFront(*p);
        if (d < bestD) {
            bestD = d;
            best = a;
        }
    }
    return best;
}

// A Commander: attach to the unit of its command it can best rally (6.5: combat losses), away from the
// fighting (12.2.15 casualty checks) and near the command's middle (12.1.1: 8 TUM command radius).
TAction chooseCommander(const Ctx& c, int u, const QList<TAction>& legal) {
    const Unit& x = c.s.units[u];
    Vec2 centre;
    int n = 0;
    for (int f : c.mine)
        if (c.s.units[f].command == x.command) {
            centre = centre + c.s.units[f].pose.c;
            ++n;
        }
    centre = centre * (1.0 / std::max(1, n));
    auto worth = [&](int f) {
        const Unit& y = c.s.units[f];
        if (y.type == UnitType::Cannon)
            return -5.0;
        double v = std::min(y.combatLoss, y.startResolve - y.resolve) > 0 ? 1.0 : 0.0;
        if (c.locked(f))
            v -= 0.8;
        if (c.anyWithin(f, c.theirs, 4, 6))
            v -= 0.4;
        v -= 0.12 * (y.pose.c - centre).length();
        return v;
    };
    const double now =
        x.attachedTo >= 0 && c.s.units[x.attachedTo].onTable() ? worth(x.attachedTo) + 0.3 : -1e9;
    TAction best;
    best.kind = TAction::Hold;
    best.unit = u;
    double bestV = now;
    for (const TAction& a : legal) {
        if (a.kind != TAction::Move || a.move.kind != MoveKind::Attach)
            continue;
        const double v = worth(a.move.target);
        if (v > bestV) {
            bestV = v;
            best = a;
        }
    }
    return best;
}

// Moves one unit per decision: Cannon first, then line units and Horse from the rear (so the line forms
// on the laggards), Commanders last.
TAction chooseMove(const Ctx& c) {
    QList<std::pair<double, int>> order;
    for (qsizetype i = 0; i < c.s.units.size(); ++i) {
        const Unit& x = c.s.units[i];
        if (x.side != c.side || !x.onTable() || x.actedThisStep)
            continue;
        const double rank = x.type == UnitType::Cannon      ? 0
                            : x.type == UnitType::Commander ? 3
                            : isCavalry(x.type)             ? 2
                                                            : 1;
        order << std::pair{rank * 1000 + c.adv(x.pose.c), int(i)};
    }
    std::stable_sort(order.begin(), order.end());
    for (const auto& [rank, u] : order) {
        (void)rank;
        const Unit& x = c.s.units[u];
        if (x.type == UnitType::Commander || x.type == UnitType::Cannon) {
            QList<TAction> legal;
            for (const MoveSpec& m : c.e.candidateMoves(c.s, u)) {
                TAction a;
                a.kind = TAction::Move;
                a.unit = u;
                a.move = m;
                legal << a;
            }
            if (legal.isEmpty()) // no candidate move: the unit cannot act (not even hold)
                continue;
            return x.type == UnitType::Commander ? chooseCommander(c, u, legal) : chooseCannon(c, u, legal);
        }
        // A move chosen is a listed one (so the unit has a candidate move); whether it may hold is asked only
        // when it would.
        const TAction a = chooseMoveFor(c, u);
        if (a.kind == TAction::Move || c.e.hasCandidateMove(c.s, u))
            return a;
    }
    return TAction{};
}

} // namespace

TAction chooseTacticalAction(const TvbdEngine& engine, const BattleState& s, wp::rules::Rng& rng,
                             TacticalLevel level) {
    if (s.over())
        return {};
    if (s.step == Step::Setup)
        return chooseSetupAction(engine, s, rng);
    const Ctx c(engine, s, level);
    switch (s.step) {
    case Step::Move:
        return chooseMove(c);
    case Step::Bombard:
    case Step::Shoot:
        return chooseShot(c, engine.legalActions(s));
    case Step::Declare:
        // Only a formed unit with an enemy within 3 TUM can declare a charge the policy would weigh
        // (chargeOptions, 5.1; Commanders' charges are not weighed): without one it ends the step, as
        // chooseCharge would, without listing the legal actions.
        if (!mayDeclare(c))
            return TAction{};
        return chooseCharge(c, engine.legalActions(s));
    case Step::Evade:
        return chooseEvade(c, engine.legalActions(s));
    case Step::Initiative:
    case Step::Over:
    case Step::Setup:
        break;
    }
    return {};
}

} // namespace wp::tactical
