// TVBD sequence of play (9): bombardment (1.7), initiative (10), movement and shooting steps (11-13),
// close combat (14) and morale (15), with the legal actions of each decision step.
#include "sidewords.h"
#include "tvbd.h"

#include <QVarLengthArray>

#include <algorithm>

namespace wp::tactical {

namespace {

// Phase indexes within a turn.
enum : int {
    kInitiative = 0,
    kMoveActive,
    kShootReactive,
    kMoveReactive,
    kShootActive,
    kDeclareActive,
    kDeclareReactive,
    kCancel,
    kEvadeActive,
    kEvadeReactive,
    kCombat
};

QString fmt(double v) {
    return QString::number(v, 'f', 2);
}

QString diceText(const QList<int>& d) {
    QStringList s;
    for (int x : d)
        s << QString::number(x);
    return s.join(QLatin1Char(','));
}

int hitsOf(const QList<int>& d, int need) {
    return int(std::count_if(d.begin(), d.end(), [need](int x) { return x >= need; }));
}

} // namespace

void TvbdEngine::start(BattleState& s) const {
    beginSetup(s); // 1.1-1.6 (tvbd_setup.cpp), then the bombardment
}

void TvbdEngine::beginBombardment(BattleState& s) const {
    s.turn = 0;
    s.step = Step::Bombard;
    s.phaseIndex = -2;
    s.stepSide = 1 - s.attacker; // 1.7: the defender's Cannon first
    s.note(QStringLiteral("%1: %2 (attacker) against %3; %4 table %5 x %6 TUM; army breakpoints %7 / %8")
               .arg(s.title.isEmpty() ? QStringLiteral("Battle") : s.title, s.sideName[s.attacker],
                    s.sideName[1 - s.attacker], s.sizeName)
               .arg(s.tableW)
               .arg(s.tableD)
               .arg(armyBreakpoint(s.originalUnits[0]))
               .arg(armyBreakpoint(s.originalUnits[1])));
    s.note(QStringLiteral("1.7 bombardment: %1 unlimbered Cannon").arg(possessive(s.sideName[s.stepSide])));
    advance(s);
}

int TvbdEngine::actor(const BattleState& s) const {
    return s.over() ? -1 : s.stepSide;
}

QString TvbdEngine::prompt(const BattleState& s) const {
    const QString who = s.sideName[s.stepSide];
    switch (s.step) {
    case Step::Setup:
        return setupPrompt(s);
    case Step::Bombard:
        return QStringLiteral("1.7 %1: bombard with unlimbered Cannon, or end").arg(who);
    case Step::Move:
        return QStringLiteral("Turn %1, %2 %3: move units, or end")
            .arg(s.turn)
            .arg(s.stepSide == s.active ? QStringLiteral("3.1") : QStringLiteral("4.1"), who);
    case Step::Shoot:
        return QStringLiteral("Turn %1, %2 %3: shoot, or end")
            .arg(s.turn)
            .arg(s.stepSide == s.active ? QStringLiteral("4.2") : QStringLiteral("3.2"), who);
    case Step::Declare:
        return QStringLiteral("Turn %1, 5.1 %2: declare charges, or end").arg(s.turn).arg(who);
    case Step::Evade:
        return QStringLiteral("Turn %1, 5.3 %2: evade with charged Light Horse, or stand")
            .arg(s.turn)
            .arg(who);
    case Step::Initiative:
    case Step::Over:
        break;
    }
    return s.resultReason;
}

bool TvbdEngine::canAct(const BattleState& s, int u) const {
    const Unit& x = s.units[u];
    return x.side == s.stepSide && x.onTable() && !x.actedThisStep;
}

QList<TAction> TvbdEngine::legalActions(const BattleState& s) const {
    QList<TAction> out;
    if (s.over())
        return out;
    const TableReadScope scope(s);
    switch (s.step) {
    case Step::Setup:
        return setupActions(s);
    case Step::Move:
        for (qsizetype i = 0; i < s.units.size(); ++i) {
            if (!canAct(s, int(i)))
                continue;
            const QList<MoveSpec> moves = candidateMoves(s, int(i));
            for (const MoveSpec& m : moves) {
                TAction a;
                a.kind = TAction::Move;
                a.unit = int(i);
                a.move = m;
                out << a;
            }
            if (!moves.isEmpty()) {
                TAction h;
                h.kind = TAction::Hold;
                h.unit = int(i);
                out << h;
            }
        }
        break;
    case Step::Bombard:
    case Step::Shoot: {
        QHash<int, QList<int>> byTarget;
        for (int u : shooters(s, s.stepSide)) {
            if (s.step == Step::Bombard && s.units[u].type != UnitType::Cannon)
                continue;
            for (int t : shootTargets(s, u))
                byTarget[t] << u;
        }
        QList<int> targets = byTarget.keys();
        std::sort(targets.begin(), targets.end());
        for (int t : targets) {
            const QList<int>& sh = byTarget[t];
            for (int p : sh) {
                TAction a;
                a.kind = TAction::Shoot;
                a.unit = p;
                a.target = t;
                out << a;
                if (sh.size() > 1) {
                    for (int q : sh)
                        if (q != p)
                            a.secondary << q;
                    out << a;
                }
            }
        }
        break;
    }
    case Step::Declare:
        for (qsizetype i = 0; i < s.units.size(); ++i) {
            const Unit& x = s.units[i];
            if (!canAct(s, int(i)) || !isFormed(x.type) || x.shotMarker || x.movedMarker ||
                x.chargeTarget >= 0 || locked(s, int(i)))
                continue;
            for (const auto& [t, plan] : chargeOptions(s, int(i))) {
                TAction a;
                a.kind = TAction::Charge;
                a.unit = int(i);
                a.target = t;
                out << a;
            }
        }
        for (qsizetype i = 0; i < s.units.size(); ++i) // 14.1.4 Commanders charge to attach
            if (canAct(s, int(i)) && s.units[i].type == UnitType::Commander)
                for (int t : commanderChargeTargets(s, int(i))) {
                    TAction a;
                    a.kind = TAction::Charge;
                    a.unit = int(i);
                    a.target = t;
                    out << a;
                }
        break;
    case Step::Evade:
        for (qsizetype i = 0; i < s.units.size(); ++i) {
            const Unit& x = s.units[i];
            if (!canAct(s, int(i)) || !r.type(x.type).canEvade || x.chargeTarget >= 0 || x.evaded)
                continue;
            bool charged = false;
            for (const Unit& y : s.units)
                charged = charged || (y.onTable() && y.side != x.side && y.chargeTarget == int(i));
            if (!charged || inDifficult(s, int(i)))
                continue;
            TAction st;
            st.kind = TAction::Stand;
            st.unit = int(i);
            out << st;
            for (const MoveSpec& m : {mv(MoveKind::AboutFace, 0, 8), mv(MoveKind::AboutFace, 0, 6),
                                      mv(MoveKind::AboutFace, 0, 4), mv(MoveKind::Backward, 0, 3),
                                      mv(MoveKind::Oblique, 45, 8), mv(MoveKind::Oblique, -45, 8)}) {
                TAction a;
                a.kind = TAction::Evade;
                a.unit = int(i);
                a.move = m;
                QString why;
                if (evadeOk(s, int(i), m, &why))
                    out << a;
            }
        }
        break;
    case Step::Initiative:
    case Step::Over:
        return out;
    }
    if (s.step != Step::Evade)
        out << TAction{};
    return out;
}

bool TvbdEngine::evadeOk(const BattleState& s, int u, const MoveSpec& m, QString* why) const {
    // 14.3: normal movement in open terrain, ending more than 3 TUM from every charger and out of contact.
    const auto end = checkMove(s, u, m, why, true);
    if (!end)
        return false;
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const Unit& y = s.units[i];
        if (!y.onTable() || y.side == s.units[u].side || y.type == UnitType::Commander)
            continue;
        const double d = wp::tactical::distance(*end, y.pose, r.evadeClear + 0.1);
        if (y.chargeTarget == u && d <= r.evadeClear + 1e-9) {
            if (why)
                *why = QStringLiteral("14.3 must end more than %1 TUM from %2").arg(fmt(r.evadeClear), y.id);
            return false;
        }
        if (d <= kContactEps) {
            if (why)
                *why = QStringLiteral("14.3 must end out of contact");
            return false;
        }
    }
    return true;
}

bool TvbdEngine::apply(BattleState& s, const TAction& a, QString* error) const {
    auto fail = [&](const QString& why) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(actionText(s, a), why);
        return false;
    };
    if (s.over())
        return fail(QStringLiteral("the battle is over"));
    if (s.step == Step::Setup) {
        QString why;
        if (!applySetup(s, a, &why))
            return fail(why);
        return true;
    }
    if (a.kind == TAction::End) {
        if (s.step == Step::Evade)
            return fail(QStringLiteral("each charged Light Horse evades or stands"));
        s.note(QStringLiteral("%1 the step").arg(subject(s.sideName[s.stepSide], "ends")));
        nextStep(s);
        advance(s);
        return true;
    }
    if (a.unit < 0 || a.unit >= s.units.size())
        return fail(QStringLiteral("no such unit"));
    if (!canAct(s, a.unit)) { // why not, in the player's terms
        const Unit& y = s.units[a.unit];
        return fail(y.side != s.stepSide ? QStringLiteral("%1 is %2 unit; %3 now")
                                               .arg(y.id, possessive(s.sideName[y.side]),
                                                    subject(s.sideName[s.stepSide], "acts"))
                    : !y.onTable() ? QStringLiteral("%1 is not on the table").arg(y.id)
                                   : QStringLiteral("%1 has already acted this step").arg(y.id));
    }
    Unit& x = s.units[a.unit];
    switch (a.kind) {
    case TAction::Hold:
        if (s.step != Step::Move)
            return fail(QStringLiteral("not a movement step"));
        x.actedThisStep = true;
        break;
    case TAction::Move: {
        if (s.step != Step::Move)
            return fail(QStringLiteral("not a movement step"));
        QString why;
        const auto end = checkMove(s, a.unit, a.move, &why);
        if (!end)
            return fail(why);
        if (!inCommand(s, a.unit) && !commandCheck(s, a.unit)) {
            x.actedThisStep = true;
            break;
        }
        x.actedThisStep = true;
        if (a.move.kind == MoveKind::Unlimber) {
            x.limbered = false;
            x.movedMarker = true;
            s.note(QStringLiteral("12.1.7 %1 unlimbers").arg(x.id));
            break;
        }
        if (a.move.kind == MoveKind::Pivot || a.move.kind == MoveKind::Backward)
            x.movedMarker = true; // 12.1.8, 12.1.5
        if (x.type == UnitType::Commander)
            x.attachedTo = a.move.kind == MoveKind::Attach ? a.move.target : -1;
        x.pose = *end;
        syncAttached(s, a.unit);
        s.note(QStringLiteral("12.1 %1 %2 to (%3, %4) facing %5")
                   .arg(x.id, actionText(s, a).section(QLatin1Char(' '), 2), fmt(x.pose.c.x), fmt(x.pose.c.y))
                   .arg(int(std::lround(x.pose.facing)) % 360));
        break;
    }
    case TAction::Shoot: {
        if (s.step != Step::Shoot && s.step != Step::Bombard)
            return fail(QStringLiteral("not a shooting step"));
        QList<int> all{a.unit};
        all << a.secondary;
        {
            const TableReadScope scope(s); // the checks read the state only
            for (int sh : all) {
                if (sh < 0 || sh >= s.units.size())
                    return fail(QStringLiteral("12.2.2 no unit %1").arg(sh));
                if (!mayShoot(s, sh, s.stepSide) || s.units[sh].actedThisStep)
                    return fail(QStringLiteral("12.2.2 %1 cannot shoot").arg(s.units[sh].id));
                if (s.step == Step::Bombard && s.units[sh].type != UnitType::Cannon)
                    return fail(QStringLiteral("1.7 only Cannon bombard"));
                if (!shootTargets(s, sh).contains(a.target))
                    return fail(QStringLiteral("12.2.7 %1 may not shoot at %2")
                                    .arg(s.units[sh].id, s.units[a.target].id));
                if (all.count(sh) > 1)
                    return fail(QStringLiteral("a shooter is named twice"));
            }
        }
        resolveShot(s, a.target, a.unit, a.secondary);
        checkImmediateEnd(s);
        break;
    }
    case TAction::Charge: {
        if (s.step != Step::Declare)
            return fail(QStringLiteral("not the declaration step"));
        if (x.type == UnitType::Commander) {
            if (!commanderChargeTargets(s, a.unit).contains(a.target))
                return fail(
                    QStringLiteral("14.1.4 a Commander charges only to attach to a unit of its command "
                                   "that has declared a charge or is locked in melee, within 3 TUM"));
            x.actedThisStep = true;
            x.chargeTarget = a.target;
            s.note(QStringLiteral("14.1.4 %1 declares a charge to attach to %2")
                       .arg(x.id, s.units[a.target].id));
            break;
        }
        if (!isFormed(x.type) || x.shotMarker || x.movedMarker || locked(s, a.unit))
            return fail(QStringLiteral("14.1 this unit may not charge (shot, moved back or locked)"));
        bool found = false;
        for (const auto& [t, p] : chargeOptions(s, a.unit))
            found = found || t == a.target;
        if (!found)
            return fail(
                QStringLiteral("14.1 cannot reach that target with a 3 TUM charge (front before flank)"));
        x.actedThisStep = true;
        if (!inCommand(s, a.unit) && !commandCheck(s, a.unit))
            break;
        x.chargeTarget = a.target;
        s.note(QStringLiteral("14.1 %1 declares a charge on %2").arg(x.id, s.units[a.target].id));
        break;
    }
    case TAction::Evade:
    case TAction::Stand: {
        if (s.step != Step::Evade)
            return fail(QStringLiteral("not the evade step"));
        bool listed = false;
        for (const TAction& l : legalActions(s))
            listed = listed || (l.unit == a.unit && (l.kind == TAction::Stand));
        if (!listed)
            return fail(QStringLiteral("14.3 this unit cannot evade now"));
        if (a.kind == TAction::Stand) {
            x.actedThisStep = true;
            s.note(QStringLiteral("14.3 %1 stands").arg(x.id));
            break;
        }
        QString why;
        if (!evadeOk(s, a.unit, a.move, &why))
            return fail(why); // (refused: the state is unchanged, the unit may still evade or stand)
        x.actedThisStep = true;
        if (!commandCheck(s, a.unit)) { // 14.3: Light Horse always test to evade
            s.note(QStringLiteral("14.3 %1 fails to evade and receives the charge").arg(x.id));
            break;
        }
        x.pose = *checkMove(s, a.unit, a.move, nullptr, true);
        x.evaded = true;
        syncAttached(s, a.unit);
        s.note(QStringLiteral("14.3 %1 evades to (%2, %3)").arg(x.id, fmt(x.pose.c.x), fmt(x.pose.c.y)));
        break;
    }
    case TAction::End:
        break;
    case TAction::Place:
    case TAction::Change:
    case TAction::Deploy:
    case TAction::Pass:
    case TAction::Size:
    case TAction::Agree:
    case TAction::Recruit:
    case TAction::Assign:
    case TAction::Aggressive:
        return fail(QStringLiteral("a set-up action (10.1-10.6) outside the set-up"));
    }
    advance(s);
    return true;
}

void TvbdEngine::checkImmediateEnd(BattleState&) const {
    // Victory is checked only at the end of a turn (15.6); nothing to do mid-turn.
}

void TvbdEngine::nextStep(BattleState& s) const {
    for (Unit& u : s.units)
        u.actedThisStep = false;
    ++s.phaseIndex;
    if (s.phaseIndex == -1) {
        s.stepSide = s.attacker;
        s.note(
            QStringLiteral("1.7 bombardment: %1 unlimbered Cannon").arg(possessive(s.sideName[s.stepSide])));
        return;
    }
    if (s.phaseIndex == 0) {
        for (Unit& u : s.units)
            u.shotMarker = false; // 1.7: markers removed once all Cannon have shot
        beginTurn(s);
        return;
    }
    switch (s.phaseIndex) {
    case kMoveActive:
        s.step = Step::Move;
        s.stepSide = s.active;
        break;
    case kShootReactive:
        s.step = Step::Shoot;
        s.stepSide = s.reactive();
        break;
    case kMoveReactive:
        s.step = Step::Move;
        s.stepSide = s.reactive();
        break;
    case kShootActive:
        s.step = Step::Shoot;
        s.stepSide = s.active;
        break;
    case kDeclareActive:
        s.step = Step::Declare;
        s.stepSide = s.active;
        break;
    case kDeclareReactive:
        s.step = Step::Declare;
        s.stepSide = s.reactive();
        break;
    case kEvadeActive:
        s.step = Step::Evade;
        s.stepSide = s.active;
        break;
    case kEvadeReactive:
        s.step = Step::Evade;
        s.stepSide = s.reactive();
        break;
    default:
        break;
    }
}

void TvbdEngine::beginTurn(BattleState& s) const {
    ++s.turn;
    s.phaseIndex = kInitiative;
    s.step = Step::Initiative;
    // Phase 2 initiative: 1d6 each, the higher is active, the attacker wins ties.
    if (s.attackerAlwaysInitiative) {
        s.active = s.attacker;
        s.note(QStringLiteral("Turn %1. 11 initiative: %2 active (designer's option)")
                   .arg(s.turn)
                   .arg(subject(s.sideName[s.active], "is")));
    } else {
        const int a = s.roll(), d = s.roll();
        s.active = a >= d ? s.attacker : 1 - s.attacker;
        s.note(QStringLiteral("Turn %1. 11 initiative: %2 %3, %4 %5: %6 active")
                   .arg(s.turn)
                   .arg(s.sideName[s.attacker])
                   .arg(a)
                   .arg(s.sideName[1 - s.attacker])
                   .arg(d)
                   .arg(subject(s.sideName[s.active], "is")));
    }
    nextStep(s);
}

void TvbdEngine::advance(BattleState& s) const {
    while (!s.over()) {
        if (s.phaseIndex == kCancel) {
            cancelCharges(s);
            nextStep(s);
            continue;
        }
        if (s.phaseIndex == kCombat) {
            resolveCharges(s);
            resolveMelee(s);
            morale(s);
            if (s.over())
                return;
            for (Unit& u : s.units)
                u.actedThisStep = false;
            beginTurn(s);
            continue;
        }
        // A decision step with nothing to decide is passed over (the test reads the state only).
        bool any = false;
        const TableReadScope scope(s);
        if (s.step == Step::Move) {
            for (qsizetype i = 0; i < s.units.size() && !any; ++i)
                any = canAct(s, int(i)) && hasCandidateMove(s, int(i));
        } else if (s.step == Step::Shoot || s.step == Step::Bombard) {
            // the same test as legalActions listing a shot, stopping at the first shooter with a target
            for (qsizetype u = 0; u < s.units.size() && !any; ++u) {
                if (!mayShoot(s, int(u), s.stepSide) ||
                    (s.step == Step::Bombard && s.units[u].type != UnitType::Cannon))
                    continue;
                any = !shootTargets(s, int(u)).isEmpty();
            }
        } else if (s.step == Step::Declare) {
            for (qsizetype i = 0; i < s.units.size() && !any; ++i) {
                const Unit& x = s.units[i];
                if (!canAct(s, int(i)) || !isFormed(x.type) || x.shotMarker || x.movedMarker ||
                    x.chargeTarget >= 0 || locked(s, int(i)))
                    continue;
                any = !chargeOptions(s, int(i)).isEmpty();
            }
            for (qsizetype i = 0; i < s.units.size() && !any; ++i)
                any = canAct(s, int(i)) && s.units[i].type == UnitType::Commander &&
                      !commanderChargeTargets(s, int(i)).isEmpty();
        } else {
            const QList<TAction> l = legalActions(s);
            any = std::any_of(l.begin(), l.end(), [](const TAction& a) { return a.kind != TAction::End; });
        }
        if (any)
            return;
        nextStep(s);
    }
}

void TvbdEngine::cancelCharges(BattleState& s) const {
    // 14.2 rule 2: a cavalry charge cancels the declarations of the infantry it targets.
    // 14.2 rule 1: a unit charged by an enemy it cannot itself reach or answer has its declaration cancelled.
    QList<int> cancel;
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const Unit& x = s.units[i];
        if (x.chargeTarget < 0 || !x.onTable())
            continue;
        for (qsizetype j = 0; j < s.units.size(); ++j) {
            const Unit& y = s.units[j];
            if (y.chargeTarget != int(i) || !y.onTable() || y.side == x.side) // (14.1.4 Commanders: friends)
                continue;
            if (isCavalry(y.type) && isInfantry(x.type)) {
                s.note(
                    QStringLiteral("14.2 %1's charge is cancelled: charged by cavalry %2").arg(x.id, y.id));
                cancel << int(i);
                break;
            }
            if (x.chargeTarget == int(j))
                continue;
            bool answer = false;
            for (const auto& [t, p] : chargeOptions(s, int(i)))
                answer = answer || t == int(j);
            if (!answer) {
                s.note(QStringLiteral("14.2 %1's charge is cancelled: charged by %2, which it cannot reach")
                           .arg(x.id, y.id));
                cancel << int(i);
                break;
            }
        }
    }
    for (int i : cancel)
        s.units[i].chargeTarget = -1;
}

void TvbdEngine::resolveCharges(BattleState& s) const {
    // 14.4.1 order: active cavalry, reactive cavalry, active infantry, reactive infantry, active
    // Commanders, reactive Commanders (attached Commanders ride with their unit).
    QList<int> order;
    for (int pass = 0; pass < 6; ++pass) {
        const int side = pass % 2 == 0 ? s.active : s.reactive();
        for (qsizetype i = 0; i < s.units.size(); ++i) {
            const Unit& x = s.units[i];
            const int kind = isCavalry(x.type) ? 0 : x.type == UnitType::Commander ? 2 : 1;
            if (x.side == side && x.chargeTarget >= 0 && x.onTable() && kind == pass / 2)
                order << int(i);
        }
    }
    for (int u : order) {
        Unit& x = s.units[u];
        const int t = x.chargeTarget;
        x.chargeTarget = -1;
        if (!x.onTable() || t < 0)
            continue;
        if (x.type == UnitType::Commander) {
            // 14.1.4: to a unit that has just charged or is locked in melee, within the 3 TUM charge.
            const Unit& tu = s.units[t];
            const double len = (tu.pose.c - x.pose.c).length();
            if (!tu.onTable() || !(tu.charged || locked(s, t)) || len > r.type(x.type).charge + 1e-6) {
                s.note(QStringLiteral("14.1.4 %1 cannot charge to attach to %2 (%3)")
                           .arg(x.id, tu.id,
                                !tu.onTable() ? QStringLiteral("gone")
                                : !(tu.charged || locked(s, t))
                                    ? QStringLiteral("it did not charge")
                                    : QStringLiteral("%1 TUM away").arg(fmt(len))));
                continue;
            }
            x.pose.c = tu.pose.c;
            x.attachedTo = t;
            s.note(QStringLiteral("14.1.4 %1 charges %2 TUM and attaches to %3").arg(x.id, fmt(len), tu.id));
            continue;
        }
        if (!s.units[t].onTable())
            continue;
        const auto plan = chargePlan(s, u, t);
        if (!plan) {
            if (s.units[t].evaded) {
                // 14.2: the charge still moves (straight, full 3 TUM, stopping short of any contact).
                double go = 0;
                for (double d = 0.1; d <= r.type(x.type).charge + 1e-9; d += 0.1) {
                    const Pose q{x.pose.c + x.pose.forward() * d, x.pose.facing, x.pose.w, x.pose.d};
                    bool stop = blockedAt(s, u, q, {}, nullptr);
                    for (qsizetype j = 0; j < s.units.size() && !stop; ++j)
                        stop = s.units[j].side != x.side && s.units[j].onTable() &&
                               s.units[j].type != UnitType::Commander &&
                               wp::tactical::distance(q, s.units[j].pose, 0.1) <= kContactEps;
                    if (stop)
                        break;
                    go = d;
                }
                x.pose.c = x.pose.c + x.pose.forward() * go;
                syncAttached(s, u);
                s.note(QStringLiteral("14.4 %1 charges %2 TUM into the space %3 evaded from")
                           .arg(x.id, fmt(go), s.units[t].id));
            } else {
                s.note(QStringLiteral("14.4 %1 can no longer reach %2: no charge").arg(x.id, s.units[t].id));
            }
            continue;
        }
        ChargePlan p = *plan;
        // Units charging each other meet halfway (14.4): the first to move goes half the gap.
        Unit& tu = s.units[t];
        if (tu.chargeTarget == u && p.dist > 0.05) {
            const Pose w0 = p.wheel == 0 ? x.pose : wheeled(x.pose, p.wheel);
            p.end = Pose{w0.c + w0.forward() * (p.dist / 2), w0.facing, w0.w, w0.d};
            x.pose = p.end;
            x.charged = true;
            syncAttached(s, u);
            s.note(QStringLiteral("14.4 %1 and %2 charge each other and meet halfway").arg(x.id, tu.id));
            continue;
        }
        x.pose = p.end;
        x.charged = true;
        x.chargeContact = p.contactZone;
        syncAttached(s, u);
        s.note(QStringLiteral("14.4 %1 charges %2%3: contact %4")
                   .arg(x.id, tu.id,
                        p.wheel != 0 ? QStringLiteral(" (wheel %1)").arg(fmt(p.wheel)) : QString(),
                        zoneName(p.contactZone)));
        // 14.5.10 Cannon contacted by a charge are eliminated.
        for (int e : contacts(s, u))
            if (s.units[e].type == UnitType::Cannon) {
                s.note(QStringLiteral("14.5.10 %1 is overrun and eliminated").arg(s.units[e].id));
                removeUnit(s, e, UnitStatus::Eliminated);
            }
    }
    for (Unit& x : s.units)
        x.chargeTarget = -1;
}

MeleeSetup TvbdEngine::meleeSetup(const BattleState& s, const QList<int>& members) const {
    MeleeSetup m;
    m.members = members;
    const qsizetype n = members.size();
    // Each unit's target: the lowest to-hit, then the weakest (owner's choice, docs/tvbd.md).
    for (int u : members) {
        const QList<int> c = contacts(s, u);
        int best = -1;
        bool same = true;
        int bestHit = 0; // meleeToHit(s, u, best), each contact's taken once
        for (int e : c) {
            const int hit = meleeToHit(s, u, e);
            if (best >= 0 && hit != bestHit)
                same = false;
            if (best < 0 || hit < bestHit || (hit == bestHit && s.units[e].resolve < s.units[best].resolve)) {
                best = e;
                bestHit = hit;
            }
        }
        m.contacts << c;
        m.target << best;
        m.split << (same && c.size() > 1);
        m.commanders << attachedCommanders(s, u);
    }
    // Primary fighter per target: the most expected hits (14.5.4), each member's dice as a primary fighter on
    // its target taken once.
    QVarLengthArray<MeleeDice, 8> asPrimary;
    for (qsizetype k = 0; k < n; ++k)
        asPrimary.push_back(meleeDice(s, members[k], m.target[k], true));
    const auto ev = [&](qsizetype k) { return asPrimary[k].dice * (7.0 - asPrimary[k].toHit) / 6.0; };
    QHash<int, qsizetype> primaryFor; // target -> member index
    for (qsizetype k = 0; k < n; ++k) {
        const int t = m.target[k];
        if (!primaryFor.contains(t) || ev(k) > ev(primaryFor[t]) + 1e-9)
            primaryFor[t] = k;
    }
    for (qsizetype k = 0; k < n; ++k) {
        m.primary << (primaryFor[m.target[k]] == k);
        m.dice << (m.primary[k] ? asPrimary[k] : meleeDice(s, members[k], m.target[k], false));
    }
    return m;
}

QList<int> TvbdEngine::meleeTaken(const BattleState& s, const MeleeSetup& m, const QList<int>& hits) const {
    // The hits each unit takes, by unit: a melee has few units, looked for in a flat list (the odds ask this
    // for every combination of hits).
    QVarLengthArray<std::pair<int, int>, 16> taken;
    const auto value = [&](int unit) {
        for (const auto& [v, n] : taken)
            if (v == unit)
                return n;
        return 0;
    };
    const auto at = [&](int unit) -> int& {
        for (auto& [v, n] : taken)
            if (v == unit)
                return n;
        taken.push_back({unit, 0});
        return taken.back().second;
    };
    const auto left = [&](int unit) { return s.units[unit].resolve - value(unit); };
    for (qsizetype k = 0; k < m.members.size(); ++k) {
        int h = hits[k];
        if (m.split[k]) {
            // same to-hit against every contact: spread the hits to rout the weakest first
            QVarLengthArray<int, 8> c(m.contacts[k].begin(), m.contacts[k].end());
            std::sort(c.begin(), c.end(), [&](int a2, int b2) { return left(a2) < left(b2); });
            for (int e : c) {
                const int put = std::min(std::max(0, left(e)), h);
                at(e) += put;
                h -= put;
            }
            if (h > 0)
                at(c.first()) += h;
        } else {
            at(m.target[k]) += h;
        }
    }
    QList<int> out;
    out.reserve(m.members.size());
    for (int u : m.members)
        out << value(u);
    return out;
}

void TvbdEngine::resolveMelee(BattleState& s) const {
    // Groups of units in contact (14.5), from the attacker's right flank.
    const Vec2 right = dirDeg(s.attacker == 0 ? 0 : 180);
    QList<int> inMelee;
    for (qsizetype i = 0; i < s.units.size(); ++i)
        if (s.units[i].onTable() && s.units[i].type != UnitType::Commander &&
            s.units[i].type != UnitType::Cannon && !contacts(s, int(i)).isEmpty())
            inMelee << int(i);
    QHash<int, int> group;
    int ng = 0;
    for (int u : inMelee) {
        if (group.contains(u))
            continue;
        QList<int> stack{u};
        group[u] = ng;
        while (!stack.isEmpty()) {
            const int v = stack.takeLast();
            for (int w : contacts(s, v))
                if (!group.contains(w) && s.units[w].type != UnitType::Cannon) {
                    group[w] = ng;
                    stack << w;
                }
        }
        ++ng;
    }
    QList<std::pair<double, int>> orderG;
    for (int g = 0; g < ng; ++g) {
        Vec2 c;
        int n = 0;
        for (auto it = group.begin(); it != group.end(); ++it)
            if (it.value() == g) {
                c = c + s.units[it.key()].pose.c;
                ++n;
            }
        orderG << std::pair{-(c * (1.0 / n)).dot(right), g};
    }
    std::sort(orderG.begin(), orderG.end());
    for (const auto& [key, g] : orderG) {
        QList<int> members;
        for (auto it = group.begin(); it != group.end(); ++it)
            if (it.value() == g && s.units[it.key()].onTable())
                members << it.key();
        std::sort(members.begin(), members.end());
        if (members.isEmpty())
            continue;
        s.note(QStringLiteral("14.5 melee:%1").arg([&] {
            QString t;
            for (int m : members)
                t += QLatin1Char(' ') + s.units[m].id;
            return t;
        }()));
        const MeleeSetup m = meleeSetup(s, members);
        QList<int> hits;
        for (qsizetype k = 0; k < members.size(); ++k) {
            const int u = members[k], t = m.target[k];
            const MeleeDice& d = m.dice[k];
            const QList<int> dice = s.rollDice(d.dice);
            int h = hitsOf(dice, d.toHit);
            QString line = QStringLiteral("14.5 %1 %2 on %3: %4d6 [%5] at %6+")
                               .arg(s.units[u].id,
                                    m.primary[k] ? QStringLiteral("primary") : QStringLiteral("secondary"),
                                    s.units[t].id)
                               .arg(d.dice)
                               .arg(diceText(dice))
                               .arg(d.toHit);
            for (int c : m.commanders[k]) {
                const int cd = s.roll(); // 14.5.5: an attached Commander adds 1d6 at 4+
                line += QStringLiteral(", Commander %1 [%2] at 4+").arg(s.units[c].id).arg(cd);
                if (cd >= 4)
                    ++h;
            }
            s.note(line + QStringLiteral(": ") + counted(h, "hit"));
            hits << h;
            for (int e : m.contacts[k])
                if (!s.units[u].fought.contains(e))
                    s.units[u].fought << e;
        }
        const QList<int> takenBy = meleeTaken(s, m, hits);
        QHash<int, int> taken, inflicted;
        QHash<int, QList<int>> cmdrOf;
        for (qsizetype k = 0; k < members.size(); ++k) {
            taken[members[k]] = takenBy[k];
            inflicted[members[k]] = hits[k];
            cmdrOf[members[k]] = m.commanders[k];
        }
        // Hits apply together (14.5.11); then Commander checks (14.5.12 -> 12.2.15).
        QHash<int, QList<int>> before;
        for (int u : members)
            before[u] = contacts(s, u);
        for (int u : members) {
            if (taken.value(u) <= 0)
                continue;
            hit(s, u, taken.value(u), true, true, QStringLiteral("14.5.11"));
            const int enemySide = 1 - s.units[u].side;
            for (int c : cmdrOf[u])
                commanderCasualtyCheck(s, c, !s.units[u].onTable(), enemySide);
        }
        // Results and rally backs (14.6).
        for (int u : members) {
            Unit& x = s.units[u];
            const int tk = taken.value(u), inf = inflicted.value(u);
            if (inf > tk) {
                for (int e : before[u])
                    if (!x.wonVs.contains(e))
                        x.wonVs << e;
            }
            if (!x.onTable() || tk <= inf)
                continue;
            bool behind = false;
            const QList<int> now = contacts(s, u);
            for (int e : now) {
                const Zone z = classify(x.pose, s.units[e].pose);
                behind = behind || z == Zone::BehindFlank || z == Zone::Rear;
            }
            if (behind) {
                s.note(
                    QStringLiteral("14.6 %1 lost but has enemy behind-flank or to-rear: locked").arg(x.id));
                continue;
            }
            if (now.isEmpty())
                continue;
            rallyBack(s, u);
        }
    }
}

void TvbdEngine::morale(BattleState& s) const {
    // 6.1 remove shooting and moved markers.
    for (Unit& u : s.units) {
        u.shotMarker = false;
        u.movedMarker = false;
        u.charged = false;
        u.evaded = false;
        u.chargeContact = Zone::None;
    }
    // 6.2 Commander loss (15.2).
    for (qsizetype ci = 0; ci < s.commands.size(); ++ci) {
        Command& c = s.commands[ci];
        if (!c.casualtyMarker)
            continue;
        c.casualtyMarker = false;
        s.note(QStringLiteral("15.2 %1 lost its Commander: every unit loses 1 resolve").arg(c.name));
        for (qsizetype i = 0; i < s.units.size(); ++i)
            if (s.units[i].command == int(ci) && s.units[i].onTable() &&
                s.units[i].type != UnitType::Commander)
                hit(s, int(i), 1, false, false, QStringLiteral("15.2"));
    }
    // 6.3 erosion (15.3): per routed unit, the same command's unit nearest the routed unit loses 1.
    const QList<RoutRecord> routs = s.routsThisTurn;
    for (const RoutRecord& rr : routs) {
        if (!rr.erosion)
            continue;
        const Unit& dead = s.units[rr.unit];
        int best = -1;
        double bd = 1e9;
        for (qsizetype i = 0; i < s.units.size(); ++i) {
            const Unit& y = s.units[i];
            if (y.command != dead.command || !y.onTable() || y.type == UnitType::Commander)
                continue;
            const double d = wp::tactical::distance(y.pose.polygon(), rr.lastPos);
            if (d < bd) {
                bd = d;
                best = int(i);
            }
        }
        if (best >= 0) {
            const qsizetype before = s.routsThisTurn.size();
            hit(s, best, 1, false, false, QStringLiteral("15.3 erosion for %1").arg(dead.id));
            for (qsizetype k = before; k < s.routsThisTurn.size(); ++k)
                s.routsThisTurn[k].erosion = false; // no cascades (docs/tvbd.md)
        }
    }
    // 6.4 heroics (15.4).
    for (const RoutRecord& rr : routs) {
        if (!rr.erosion)
            continue;
        QList<int> cands, winners;
        for (qsizetype i = 0; i < s.units.size(); ++i) {
            const Unit& y = s.units[i];
            if (!y.onTable() || y.side == s.units[rr.unit].side || !y.fought.contains(rr.unit))
                continue;
            cands << int(i);
            if (y.wonVs.contains(rr.unit))
                winners << int(i);
        }
        if (!winners.isEmpty())
            cands = winners;
        int best = -1;
        for (int c : cands)
            if (s.units[c].combatLoss > 0 && (best < 0 || s.units[c].combatLoss > s.units[best].combatLoss))
                best = c;
        if (best >= 0) {
            ++s.units[best].resolve;
            --s.units[best].combatLoss;
            s.note(QStringLiteral("15.4 heroics: %1 resolve %2 (routed %3)")
                       .arg(s.units[best].id)
                       .arg(s.units[best].resolve)
                       .arg(s.units[rr.unit].id));
        }
    }
    // 6.5 Commander rally (15.5).
    for (const Unit& c : s.units) {
        if (c.type != UnitType::Commander || !c.onTable() || c.attachedTo < 0)
            continue;
        Unit& y = s.units[c.attachedTo];
        if (y.onTable() && y.combatLoss > 0) {
            ++y.resolve;
            --y.combatLoss;
            s.note(QStringLiteral("15.5 %1 rallies %2 to resolve %3").arg(c.id, y.id).arg(y.resolve));
        }
    }
    s.routsThisTurn.clear();
    for (Unit& u : s.units) {
        u.fought.clear();
        u.wonVs.clear();
    }
    // 6.6 army morale (15.6) or variable army morale (16.1).
    bool broken[2] = {false, false};
    if (s.commandMorale) {
        // 16.10: a command whose lost units reach half its size (rounded up) breaks and all its remaining
        // units rout; an army breaks when its broken commands reach the table's number.
        int commands[2] = {0, 0}, brokenCommands[2] = {0, 0};
        QList<Polygon> brokenNow[2]; // 16.10.3: where the units of commands broken this turn stood
        for (qsizetype ci = 0; ci < s.commands.size(); ++ci) {
            Command& c = s.commands[ci];
            ++commands[c.side];
            if (!c.broken) {
                int lostHere = 0;
                for (const Unit& u : s.units)
                    if (u.command == int(ci) &&
                        (u.status == UnitStatus::Routed || u.status == UnitStatus::Eliminated ||
                         u.status == UnitStatus::Casualty))
                        lostHere += u.large ? 2 : 1;
                if (lostHere >= commandBreakpoint(c.initialUnits)) {
                    c.broken = true;
                    s.note(QStringLiteral("16.10 %1 breaks (%2 of %3 lost)")
                               .arg(c.name)
                               .arg(lostHere)
                               .arg(c.initialUnits));
                    for (qsizetype i = 0; i < s.units.size(); ++i)
                        if (s.units[i].command == int(ci) && s.units[i].onTable()) {
                            brokenNow[c.side] << s.units[i].pose.polygon();
                            removeUnit(s, int(i), UnitStatus::Routed);
                        }
                }
            }
            if (c.broken)
                ++brokenCommands[c.side];
        }
        // 16.10.3 cavalry pursuit: every command with a part within 8 TUM of an enemy command broken now.
        for (qsizetype ci = 0; s.cavalryPursuit && ci < s.commands.size(); ++ci) {
            const Command& c = s.commands[ci];
            if (c.broken || brokenNow[1 - c.side].isEmpty())
                continue;
            bool near = false, horse = false, light = false;
            for (const Unit& u : s.units) {
                if (u.command != int(ci) || !u.onTable())
                    continue;
                horse = horse || u.type == UnitType::Horse;
                light = light || u.type == UnitType::LightHorse;
                const Polygon up = u.pose.polygon();
                for (const Polygon& b : brokenNow[1 - c.side])
                    near = near || wp::tactical::distance(up, b, 8.1) <= 8 + 1e-9;
            }
            if (!near || (!horse && !light))
                continue;
            auto pursue = [&](bool lightOnly) {
                for (qsizetype i = 0; i < s.units.size(); ++i) {
                    const Unit& u = s.units[i];
                    if (u.command != int(ci) || !u.onTable())
                        continue;
                    const bool goes = lightOnly
                                          ? u.type == UnitType::LightHorse
                                          : (u.type == UnitType::Commander || u.type == UnitType::Horse ||
                                             u.type == UnitType::LightHorse || u.type == UnitType::Dragoons);
                    if (goes) {
                        s.note(QStringLiteral("16.10.3 %1 pursues off the table").arg(u.id));
                        removeUnit(s, int(i), UnitStatus::PursuedOff);
                    }
                }
            };
            bool held = true;
            if (horse) {
                held =
                    pursuitCheck(s, pursuitDice(s, int(ci), false), QStringLiteral("%1 Horse").arg(c.name));
                if (!held)
                    pursue(false);
            }
            if (held && light) {
                bool anyLight = false;
                for (const Unit& u : s.units)
                    anyLight =
                        anyLight || (u.command == int(ci) && u.onTable() && u.type == UnitType::LightHorse);
                if (anyLight && !pursuitCheck(s, pursuitDice(s, int(ci), true),
                                              QStringLiteral("%1 Light Horse").arg(c.name)))
                    pursue(true);
            }
        }
        for (int side = 0; side < 2; ++side)
            broken[side] = brokenCommands[side] >= commandArmyBreakpoint(commands[side]);
    } else if (s.variableArmyMorale) {
        const int most = s.lost[0] == s.lost[1] ? -1 : (s.lost[0] > s.lost[1] ? 0 : 1);
        for (int side = 0; side < 2; ++side) {
            if (most >= 0 && side != most)
                continue;
            if (s.lost[side] == 0)
                continue;
            const int d = s.roll();
            broken[side] = 2 * (d + s.lost[side]) >= s.originalUnits[side];
            s.note(QStringLiteral("16.1 %1 army morale: 1d6 %2 + %3 lost vs half of %4: %5")
                       .arg(possessive(s.sideName[side]))
                       .arg(d)
                       .arg(s.lost[side])
                       .arg(s.originalUnits[side])
                       .arg(broken[side] ? QStringLiteral("flees") : QStringLiteral("fights on")));
        }
    } else {
        for (int side = 0; side < 2; ++side)
            broken[side] = s.lost[side] >= armyBreakpoint(s.originalUnits[side]);
    }
    s.note(QStringLiteral("15.6 end of turn %1: %2 lost %3/%4, %5 lost %6/%7")
               .arg(s.turn)
               .arg(s.sideName[0])
               .arg(s.lost[0])
               .arg(armyBreakpoint(s.originalUnits[0]))
               .arg(s.sideName[1])
               .arg(s.lost[1])
               .arg(armyBreakpoint(s.originalUnits[1])));
    if (broken[0] || broken[1]) {
        s.step = Step::Over;
        s.winner = broken[0] && broken[1] ? 2 : (broken[0] ? 1 : 0);
        s.resultReason = s.winner == 2
                             ? QStringLiteral("15.6 both armies broke in turn %1: a draw").arg(s.turn)
                             : QStringLiteral("15.6 the army of %1 broke in turn %2: %3")
                                   .arg(s.sideName[1 - s.winner])
                                   .arg(s.turn)
                                   .arg(subject(s.sideName[s.winner], "wins"));
    } else if (s.turn >= s.turnLimit) {
        s.step = Step::Over;
        s.winner = 1 - s.attacker;
        s.resultReason = QStringLiteral("10.3, 15.6 turn limit %1 reached without a break: the attacker %2")
                             .arg(s.turnLimit)
                             .arg(subject(s.sideName[s.attacker], "loses"));
    }
    if (s.over())
        s.note(s.resultReason);
}

int TvbdEngine::pursuitDice(const BattleState& s, int command, bool lightHorse) const {
    // 16.10.3: 3d6, -1d6 for a Commander casualty, -1d6 if impetuous (Light Horse always are), -1d6 if
    // no on-table enemy is within 8 TUM of any unit of the command.
    const Command& c = s.commands[command];
    int n = 3;
    if (c.commanderLost)
        --n;
    if (lightHorse || s.impetuous[c.side])
        --n;
    bool enemyNear = false;
    for (const Unit& u : s.units) {
        if (u.command != command || !u.onTable())
            continue;
        const Polygon up = u.pose.polygon();
        for (const Unit& y : s.units)
            if (y.side != c.side && y.onTable() && y.type != UnitType::Commander &&
                wp::tactical::distance(up, y.pose.polygon(), 8.1) <= 8 + 1e-9)
                enemyNear = true;
    }
    if (!enemyNear)
        --n;
    return std::max(0, n);
}

bool TvbdEngine::pursuitCheck(BattleState& s, int n, const QString& what) const {
    const QList<int> d = s.rollDice(n);
    const bool held = hitsOf(d, 6) > 0;
    s.note(QStringLiteral("16.10.3 pursuit check %1: %2d6 [%3] needing a 6: %4")
               .arg(what)
               .arg(n)
               .arg(diceText(d))
               .arg(held ? QStringLiteral("they hold") : QStringLiteral("they pursue")));
    return held;
}

} // namespace wp::tactical
