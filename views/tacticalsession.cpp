#include "tacticalsession.h"

#include "battle/record.h"

#include "tactical/battle.h"
#include "tactical/sidewords.h"
#include "tactical/tactical_game.h"
#include "tactical/tercios.h"
#include "tactical/tvbd.h"
#include "tactical/tvbd_ai.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace wp {

using namespace wp::tactical;

namespace {

// P(Binomial(n, p) >= k).
double atLeast(int n, double p, int k) {
    if (k <= 0)
        return 1;
    if (k > n)
        return 0;
    double total = 0;
    for (int i = k; i <= n; ++i) {
        double c = 1;
        for (int j = 0; j < i; ++j)
            c = c * (n - j) / (j + 1);
        total += c * std::pow(p, i) * std::pow(1 - p, n - i);
    }
    return total;
}

QString pct(double p) {
    return QStringLiteral("%1%").arg(qRound(p * 100));
}

QString num(double v) {
    return QString::number(v, 'g', 4);
}

QString dec2(double v) {
    return QString::number(v, 'f', 2);
}

// The id of unit i of either engine's state ("?" when there is none).
template <class Units> QString idOf(const Units& units, int i) {
    return i >= 0 && i < units.size() ? units[i].id : QStringLiteral("?");
}

// A TVBD move in words, after the unit's id ("wheels 20° left, then 2.5 TUM"; 12.1).
QString moveWords(const BattleState& st, const MoveSpec& m) {
    const QString side = m.angle > 0 ? QStringLiteral("left") : QStringLiteral("right");
    const QString then = m.dist > 0 ? QStringLiteral(", then %1 TUM forward").arg(num(m.dist)) : QString();
    switch (m.kind) {
    case MoveKind::Straight:
        return QStringLiteral("moves %1 TUM forward").arg(num(m.dist));
    case MoveKind::Wheel:
        return QStringLiteral("wheels %1° %2%3").arg(num(std::abs(m.angle)), side, then);
    case MoveKind::Oblique:
        return QStringLiteral("moves %1 TUM obliquely, %2° %3")
            .arg(num(m.dist), num(std::abs(m.angle)), side);
    case MoveKind::AboutFace:
        return QStringLiteral("faces about") + then;
    case MoveKind::Turn:
        return QStringLiteral("turns to the %1").arg(side) + then;
    case MoveKind::Sideways:
        return QStringLiteral("sidesteps to the %1").arg(side);
    case MoveKind::Backward:
        return QStringLiteral("moves %1 TUM back").arg(num(m.dist));
    case MoveKind::Unlimber:
        return QStringLiteral("unlimbers");
    case MoveKind::Pivot:
        return QStringLiteral("pivots %1° %2").arg(num(std::abs(m.angle)), side);
    case MoveKind::To:
        return QStringLiteral("moves to %1,%2").arg(num(m.to.x), num(m.to.y));
    case MoveKind::Attach:
        return QStringLiteral("joins %1").arg(idOf(st.units, m.target));
    case MoveKind::Face:
        return QStringLiteral("turns to face %1").arg(idOf(st.units, m.target));
    }
    return {};
}

// A Tercios order card as the rules write it ("Ready!").
QString cardLabel(Card c) {
    const QString n = cardName(c);
    return n.left(1).toUpper() + n.mid(1) + QLatin1Char('!');
}

// What the action list shows: the action in words a player reads first, then its notation (what assist mode
// types and a record keeps): "LH1 wheels 20° left, then 2.3 TUM forward   [move LH1 wheel 20 2.3]".
QString withNotation(const QString& words, const QString& text) {
    return QStringLiteral("%1   [%2]").arg(words, text);
}

// A data name in words: "difficultHill" -> "difficult hill", "PikeShot" -> "pike shot".
QString spaced(const QString& name) {
    QString out;
    for (qsizetype i = 0; i < name.size(); ++i) {
        if (i > 0 && name[i].isUpper() && name[i - 1].isLower())
            out += QLatin1Char(' ');
        out += name[i].toLower();
    }
    return out;
}

// A point of the table in the action notation's numbers ("22.5,15").
QString at(Vec2 p) {
    return QStringLiteral("%1,%2").arg(num(p.x), num(p.y));
}

// Dice values in a log line blanked ("[6,5]" -> "[…]"), for the hand-dice prompt.
QString blankDice(QString line) {
    static const QRegularExpression dice(QStringLiteral("\\[[0-9, ]*\\]"));
    return line.replace(dice, QStringLiteral("[…]"));
}

// The engine-independent core: the state, the action list and the undo stack (the engines' own policy:
// a snapshot before each action, cleared when a die is rolled or the side to act changes).
template <class State, class Engine, class Action> struct Core {
    const Engine& engine;
    State s;
    QList<Action> actions;
    QStringList texts;
    QList<QList<int>> dice;
    QStringList inputs; // per action: the text as applied (parsed from it), or the policy's notation
    QStringList policy; // per action: the policy that chose it (policyMoveSeed of its index), "" a player
    QList<std::pair<State, qsizetype>> undo;

    Core(const Engine& e, const State& scenario, quint64 seed) : engine(e), s(scenario) {
        s.rng.reseed(seed);
        s.note(QStringLiteral("seed %1").arg(seed));
        engine.start(s);
    }

    // `input`: the text `a` was parsed from ("" for a policy's action, recorded in its notation);
    // `policyName`: the policy that chose it ("" a player's action).
    bool apply(const Action& a, const QList<int>& hand, QString* error, bool keepUndo = true,
               const QString& input = {}, const QString& policyName = {}) {
        State trial = s;
        trial.scripted = hand;
        const int actor = engine.actor(s);
        const QString text = actionText(s, a);
        QString why;
        if (!engine.apply(trial, a, &why)) {
            if (error)
                *error = why;
            return false;
        }
        if (!trial.scripted.isEmpty()) {
            if (error)
                *error = QStringLiteral("'%1' rolled %2 dice, but %3 were entered")
                             .arg(text)
                             .arg(hand.size() - trial.scripted.size())
                             .arg(hand.size());
            return false;
        }
        const bool rolled = trial.rolls != s.rolls;
        if (keepUndo && !rolled && engine.actor(trial) == actor)
            undo << std::pair{s, actions.size()};
        else
            undo.clear();
        s = std::move(trial);
        actions << a;
        texts << text;
        dice << hand;
        inputs << (input.isEmpty() ? text : input);
        policy << policyName;
        return true;
    }

    bool takeBack() {
        if (undo.isEmpty())
            return false;
        auto [st, n] = undo.takeLast();
        s = std::move(st);
        actions.resize(n);
        texts.resize(n);
        dice.resize(n);
        inputs.resize(n);
        policy.resize(n);
        return true;
    }

    QList<battle::TableMove> moves() const {
        QList<battle::TableMove> out;
        for (qsizetype i = 0; i < inputs.size(); ++i)
            out << battle::TableMove{inputs[i], dice[i], policy[i]};
        return out;
    }

    // One action of the side to act chosen by `choose(state, rng)` with the generator of its index
    // (battle::policyMoveSeed of the battle's seed), recorded as the policy `name`'s; its notation in *text.
    // False when the battle is over.
    template <class Choose>
    bool playPolicy(quint64 seed, Choose choose, const QString& name, bool keepUndo, QString* text) {
        if (s.over())
            return false;
        wp::rules::Rng rng(battle::policyMoveSeed(seed, static_cast<int>(actions.size())));
        const Action a = choose(s, rng);
        if (text)
            *text = actionText(s, a);
        return apply(a, {}, nullptr, keepUndo, {}, name);
    }
    // The rest of the battle played by the policy (at most 20,000 actions); no undo back into it.
    template <class Choose> int autoResolve(quint64 seed, Choose choose, const QString& name) {
        int n = 0;
        while (n < 20000 && playPolicy(seed, choose, name, false, nullptr))
            ++n;
        undo.clear();
        return n;
    }

    int dryRun(const Action& a, const QList<int>& hand, QStringList* lines, QString* error) const {
        State trial = s;
        trial.scripted = hand;
        QString why;
        if (!engine.apply(trial, a, &why)) {
            if (error)
                *error = why;
            return -1;
        }
        if (lines) {
            lines->clear();
            for (qsizetype i = s.log.size(); i < trial.log.size(); ++i)
                *lines << blankDice(trial.log[i]);
        }
        return int(trial.rolls - s.rolls);
    }
};

// ---- TVBD ------------------------------------------------------------------------------------------------

// A move of a formed unit dragged on the table, the pose it ends in (unchecked) and how far its centre ends
// from where the base was dragged (`miss`, TUM, with a small preference for the plainer moves).
struct DragFit {
    double miss;
    MoveSpec move;
    Pose pose;
};

// The moves of unit u whose end comes near `target`, nearest first: straight ahead or back by the drag's
// length along the facing (12.1.3), each oblique and wheel (12.1.5, in 5-degree steps up to the rules'
// limits) with the straight part after it that brings the centre nearest, and the sidesteps (12.1.5).
// Distances are in 0.05 TUM, so the move's notation gives back the same move.
QList<DragFit> dragFits(const TvbdEngine& e, const BattleState& s, int u, Vec2 target) {
    const Pose& at = s.units[u].pose;
    QList<DragFit> fits;
    auto add = [&](const MoveSpec& m, double preference) {
        if (const auto p = e.movePose(s, u, m))
            fits << DragFit{(p->c - target).length() - preference, m, *p};
    };
    const double along = std::round((target - at.c).dot(at.forward()) * 20) / 20;
    if (along >= 0.05)
        add(mv(MoveKind::Straight, 0, along), 0.25);
    else if (along <= -0.05)
        add(mv(MoveKind::Backward, 0, -along), 0.25);
    // A change of direction, then the straight part (its end moves along a line as the part grows).
    auto fitLine = [&](MoveKind k, double angle) {
        const auto p0 = e.movePose(s, u, mv(k, angle, 0));
        const auto p1 = e.movePose(s, u, mv(k, angle, 1));
        if (!p0 || !p1)
            return;
        const Vec2 dir = p1->c - p0->c;
        const double len2 = dir.dot(dir);
        const double d =
            len2 > 1e-9 ? std::max(0.0, std::round((target - p0->c).dot(dir) / len2 * 20) / 20) : 0;
        if (k == MoveKind::Oblique && d < 0.05)
            return; // an oblique of no length is no move
        add(mv(k, angle, d), 0);
    };
    const TvbdRules& r = e.rules();
    for (int a = 5; a <= r.wheelMax + 1e-9; a += 5) {
        fitLine(MoveKind::Wheel, a);
        fitLine(MoveKind::Wheel, -a);
    }
    for (int a = 5; a <= r.obliqueMax + 1e-9; a += 5) {
        fitLine(MoveKind::Oblique, a);
        fitLine(MoveKind::Oblique, -a);
    }
    add(mv(MoveKind::Sideways, 1), 0.1);
    add(mv(MoveKind::Sideways, -1), 0.1);
    std::stable_sort(fits.begin(), fits.end(),
                     [](const DragFit& a, const DragFit& b) { return a.miss < b.miss; });
    return fits;
}

class TvbdSession : public TacticalSession {
  public:
    TvbdSession(const TvbdRules& rules, const BattleState& scenario, quint64 seed)
        : m_engine(rules), m_core(m_engine, scenario, seed) {}

    QString ruleset() const override { return QStringLiteral("tvbd"); }
    QString rulesetLabel() const override { return QStringLiteral("Tilly's Very Bad Day v2.0"); }
    QString title() const override { return s().title; }
    QString measure() const override { return QStringLiteral("TUM"); }
    double tableW() const override { return s().tableW; }
    double tableD() const override { return s().tableD; }
    QString sideName(int side) const override {
        return side == 0 || side == 1 ? s().sideName[side] : QString();
    }
    QString turnText() const override {
        static const char* steps[] = {
            "bombardment (1.7)", "initiative", "movement",        "shooting", "charge declarations (5.1)",
            "evades (5.3)",      "over",       "set-up (1.1-1.6)"}; // tactical::Step order
        return QStringLiteral("Turn %1 of %2 — %3; %4 active")
            .arg(s().turn)
            .arg(s().turnLimit)
            .arg(QLatin1String(steps[int(s().step)]), sideName(s().active));
    }
    int actor() const override { return m_engine.actor(s()); }
    QString prompt() const override { return m_engine.prompt(s()); }
    bool over() const override { return s().over(); }
    QString resultText() const override {
        if (!s().over())
            return {};
        const QString who = s().winner == 2 ? QStringLiteral("Draw") : subject(sideName(s().winner), "wins");
        return QStringLiteral("%1 — %2").arg(who, s().resultReason);
    }
    QStringList log() const override { return s().log; }
    quint64 rolls() const override { return s().rolls; }
    bool canUndo() const override { return !m_core.undo.isEmpty(); }
    bool undo() override { return m_core.takeBack(); }
    QStringList actionTexts() const override { return m_core.texts; }
    QList<QList<int>> handDice() const override { return m_core.dice; }
    QList<battle::TableMove> moves() const override { return m_core.moves(); }

    QList<TacUnitView> units() const override {
        QList<TacUnitView> out;
        const BattleState& st = s();
        // 10.2: while the orders of battle are secret a side sees only its own recruits (the referee all).
        const int viewer = viewingSide();
        const bool secret = orderOfBattleSecret(st) && viewer >= 0;
        for (qsizetype i = 0; i < st.units.size(); ++i) {
            const Unit& u = st.units[i];
            TacUnitView v;
            if (secret && u.side != viewer) { // kept by index, nothing of it shown
                v.side = u.side;
                v.onTable = v.deployed = false;
                v.status = QStringLiteral("not revealed");
                v.tooltip = QStringLiteral("Not revealed: 10.2 the orders of battle are secret until both "
                                           "armies are recruited");
                out << v;
                continue;
            }
            v.id = u.id;
            v.name = u.name;
            v.type = typeLabel(u.type);
            v.side = u.side;
            v.commander = u.type == UnitType::Commander;
            v.onTable = u.onTable();
            v.routed = u.status == UnitStatus::Routed || u.status == UnitStatus::PursuedOff;
            v.deployed = u.status != UnitStatus::Undeployed;
            static const char* status[] = {"on table", "routed",      "eliminated",
                                           "casualty", "pursued off", "not deployed"}; // UnitStatus order
            v.status = QLatin1String(status[int(u.status)]);
            v.pose = u.pose;
            v.strength = u.resolve;
            v.strengthMax = u.startResolve;
            v.strengthText =
                v.commander ? QString() : QStringLiteral("R%1/%2").arg(u.resolve).arg(u.startResolve);
            if (u.shotMarker)
                v.markers << QStringLiteral("shot");
            if (u.movedMarker)
                v.markers << QStringLiteral("moved");
            if (u.limbered)
                v.markers << QStringLiteral("limbered");
            if (u.chargeTarget >= 0 && u.chargeTarget < st.units.size())
                v.markers << QStringLiteral("charging %1").arg(st.units[u.chargeTarget].id);
            if (u.evaded)
                v.markers << QStringLiteral("evaded");
            if (u.attachedTo >= 0 && u.attachedTo < st.units.size())
                v.markers << QStringLiteral("with %1").arg(st.units[u.attachedTo].id);
            v.tooltip = QStringLiteral("%1 %2 (%3, %4%5)\n%6 — resolve %7 of %8, combat losses %9")
                            .arg(u.id, u.name, typeLabel(u.type), qualityName(u.quality),
                                 u.large ? QStringLiteral(", large") : QString(), v.status)
                            .arg(u.resolve)
                            .arg(u.startResolve)
                            .arg(u.combatLoss);
            if (!v.markers.isEmpty())
                v.tooltip += QStringLiteral("\nmarkers: ") + v.markers.join(QStringLiteral(", "));
            out << v;
        }
        return out;
    }

    QList<TacTerrainView> terrain() const override {
        QList<TacTerrainView> out;
        for (const TerrainFeature& f : s().terrain) {
            TacTerrainView v;
            v.id = f.id;
            v.type = f.type;
            v.cls = f.cls == TerrainClass::Open ? 0 : f.cls == TerrainClass::Difficult ? 1 : 3;
            v.blocksLOS = f.blocksLOS;
            v.elevated = f.elevated;
            const QString t = f.type.toLower();
            v.linear = t.contains(QLatin1String("stream")) || t.contains(QLatin1String("river")) ||
                       t.contains(QLatin1String("road"));
            v.water = t.contains(QLatin1String("stream")) || t.contains(QLatin1String("river")) ||
                      t.contains(QLatin1String("ford")) || t.contains(QLatin1String("marsh"));
            v.building = t.contains(QLatin1String("village")) || t.contains(QLatin1String("town"));
            v.pieces = f.pieces;
            static const char* cls[] = {"open", "difficult", "difficult", "impassable"};
            v.description = QStringLiteral("%1 (%2): %3%4%5")
                                .arg(f.id, f.type, QLatin1String(cls[v.cls]),
                                     f.blocksLOS ? QStringLiteral(", blocks line of sight") : QString(),
                                     f.elevated ? QStringLiteral(", elevated") : QString());
            out << v;
        }
        return out;
    }

    QList<TacActionView> legalActions() const override {
        QList<TacActionView> out;
        const BattleState& st = s();
        for (const TAction& a : m_engine.legalActions(st)) {
            TacActionView v;
            v.text = actionText(st, a);
            v.unit = a.unit;
            v.target = a.target;
            auto id = [&](int u) { return idOf(st.units, u); };
            QString words;
            switch (a.kind) {
            case TAction::Move:
            case TAction::Evade:
                v.kind = TacActionView::Move;
                if (auto p = m_engine.checkMove(st, a.unit, a.move, nullptr, a.kind == TAction::Evade))
                    v.end = *p;
                words = QStringLiteral("%1 %2%3").arg(
                    id(a.unit), a.kind == TAction::Evade ? QStringLiteral("evades: ") : QString(),
                    moveWords(st, a.move));
                break;
            case TAction::Hold:
                v.kind = TacActionView::Other;
                words = QStringLiteral("%1 holds").arg(id(a.unit));
                break;
            case TAction::Shoot: {
                v.kind = TacActionView::Shoot;
                v.odds = shotOdds(a);
                // "IL3 shoots SF3 (with IL5)": the notation puts the target first
                QStringList with;
                for (int x : a.secondary)
                    with << id(x);
                words = QStringLiteral("%1 shoots %2%3")
                            .arg(id(a.unit), id(a.target),
                                 with.isEmpty()
                                     ? QString()
                                     : QStringLiteral(" (with %1)").arg(with.join(QStringLiteral(", "))));
                break;
            }
            case TAction::Charge:
                v.kind = TacActionView::Charge;
                v.odds = chargeOdds(a, &v.end);
                words = QStringLiteral("%1 charges %2").arg(id(a.unit), id(a.target));
                break;
            case TAction::Stand: // a charged unit that may evade stands instead
                v.kind = TacActionView::Other;
                words = QStringLiteral("%1 stands").arg(id(a.unit));
                break;
            case TAction::Deploy: { // 10.6: drawn as a ghost where the unit would stand
                const Unit& u = st.units[a.unit];
                v.kind = TacActionView::Move;
                v.end = Pose{a.move.to, a.move.angle, u.pose.w, u.pose.d};
                words = setupWords(a);
                break;
            }
            case TAction::Place: // 10.4, 16.6.8, 16.6: drawn as a ghost where the terrain would change
            case TAction::Change:
                v.kind = TacActionView::Other;
                v.area = setupActionArea(m_engine, st, a, &v.group);
                words = setupWords(a);
                break;
            default: // the other set-up decisions (10.1, 10.2, 10.5, 16.4) and the end of a step
                v.kind = TacActionView::Other;
                words = setupWords(a);
                break;
            }
            v.label = withNotation(words, v.text);
            out << v;
        }
        return out;
    }

    bool applyText(const QString& text, const QList<int>& dice, QString* error) override {
        TAction a;
        QString why;
        if (!parseAction(s(), text, &a, &why)) {
            if (error)
                *error = why;
            return false;
        }
        return m_core.apply(a, dice, error, true, text.simplified());
    }

    int diceNeeded(const QString& text, const QList<int>& dice, QStringList* lines,
                   QString* error) const override {
        TAction a;
        QString why;
        if (!parseAction(s(), text, &a, &why)) {
            if (error)
                *error = why;
            return -1;
        }
        return m_core.dryRun(a, dice, lines, error);
    }

    // The TVBD policy of that name ("simple", "tactical") as a chooser for Core::playPolicy.
    auto chooser(const QString& name) const {
        const Policy p = policyFromName(name).value_or(Policy::Simple);
        return [this, p](const BattleState& st, wp::rules::Rng& rng) {
            return choosePolicyAction(m_engine, st, p, rng);
        };
    }
    bool hasPolicy(const QString& name) const override {
        return name == QLatin1String("simple") || name == QLatin1String("tactical");
    }
    int autoResolveRest(const QString& policy) override {
        const QString name = policy.isEmpty() ? computerPolicy() : policy;
        return hasPolicy(name) ? m_core.autoResolve(seed(), chooser(name), name) : 0;
    }
    bool applyPolicyAction(QString* text, const QString& policy) override {
        const QString name = policy.isEmpty() ? computerPolicy() : policy;
        return hasPolicy(name) && m_core.playPolicy(seed(), chooser(name), name, true, text);
    }
    const BattleState* tvbdState() const override { return &s(); }

    // 10.2: a recruit is not shown to the other side (a viewer who is not the side recruiting: a human
    // against a computer seat) while the orders of battle are secret.
    QString publicText(const QString& text) const override {
        const int viewer = viewingSide();
        if (orderOfBattleSecret(s()) && viewer >= 0 && viewer != actor() &&
            text.simplified().startsWith(QLatin1String("recruit")))
            return QStringLiteral("recruit (written down: secret until both armies are recruited, 10.2)");
        return text;
    }
    bool holdsSecrets() const override { return orderOfBattleSecret(s()); }

    QString moveToText(int unit, Vec2 to) const override {
        if (unit < 0 || unit >= s().units.size())
            return {};
        const Unit& u = s().units[unit];
        if (u.status == UnitStatus::Undeployed) // 10.6: deployed there, facing the enemy
            return QStringLiteral("deploy %1 %2,%3 %4")
                .arg(u.id, num(to.x), num(to.y), num(u.side == 0 ? 90 : 270));
        if (u.type != UnitType::Commander)
            return {};
        return QStringLiteral("move %1 to %2,%3").arg(u.id, num(to.x), num(to.y));
    }

    DragMove dragMove(int unit, Vec2 delta) const override {
        DragMove out;
        if (unit < 0 || unit >= s().units.size() || delta.length() < 0.05)
            return out;
        const Unit& u = s().units[unit];
        out.pose = u.pose;
        auto textOf = [&](const MoveSpec& m) { // the notation of a move of the unit
            TAction a;
            a.kind = TAction::Move;
            a.unit = unit;
            a.move = m;
            return actionText(s(), a);
        };
        if (u.type == UnitType::Commander) {
            const Vec2 to = u.pose.c + delta;
            out.pose.c = {std::round(to.x * 100) / 100,
                          std::round(to.y * 100) / 100}; // as the notation has it
            out.text = moveToText(unit, out.pose.c);
            // Dropped on a friendly combat unit's base: he attaches to it (12.1.9), at its centre.
            for (qsizetype i = 0; i < s().units.size(); ++i) {
                const Unit& y = s().units[i];
                if (int(i) == unit || y.side != u.side || y.type == UnitType::Commander || !y.onTable())
                    continue;
                const Vec2 l = y.pose.toLocal(out.pose.c);
                if (std::abs(l.x) <= y.pose.d / 2 && std::abs(l.y) <= y.pose.w / 2) {
                    out.text = textOf(mv(MoveKind::Attach, 0, 0, int(i)));
                    out.pose.c = y.pose.c;
                    break;
                }
            }
            out.refused = refusal(out.text);
            return out;
        }
        if (u.type == UnitType::Cannon && !u.limbered) { // 12.1.8: it pivots on its centre, to face the drag
            out.pose.facing = normDeg(std::round(std::atan2(delta.y, delta.x) * 180 / M_PI / 5) * 5);
            out.text = textOf(mv(MoveKind::Pivot, out.pose.facing));
            out.refused = refusal(out.text);
            return out;
        }
        // The nearest fits, tried in turn: the first the engine allows, else the nearest (refused). Only fits
        // within a TUM of the nearest are tried, so a drag never jumps far from the mouse.
        // A fit the engine refuses is shortened to its longest allowed straight part (a drag beyond the move
        // allowance stops at it, 12.1.3).
        const QList<DragFit> fits = dragFits(m_engine, s(), unit, u.pose.c + delta);
        for (qsizetype i = 0; i < fits.size() && i < 6 && fits[i].miss <= fits[0].miss + 1.0; ++i) {
            MoveSpec m = fits[i].move;
            QString text = textOf(m);
            QString why = refusal(text);
            if (i == 0) {
                out.text = text;
                out.pose = fits[i].pose;
                out.refused = why;
            }
            if (!why.isEmpty() && m.dist >= 0.1 && m.kind != MoveKind::Sideways) {
                const double lowest = m.kind == MoveKind::Wheel ? 0 : 0.05;
                MoveSpec shorter = m;
                shorter.dist = lowest;
                if (refusal(textOf(shorter)).isEmpty()) { // the longest allowed part, to 0.05 TUM
                    int lo = int(std::lround(lowest * 20)), hi = int(std::lround(m.dist * 20));
                    while (hi - lo > 1) {
                        const int mid = (lo + hi) / 2;
                        shorter.dist = mid / 20.0;
                        (refusal(textOf(shorter)).isEmpty() ? lo : hi) = mid;
                    }
                    m.dist = lo / 20.0;
                    text = textOf(m);
                    why.clear();
                }
            }
            if (why.isEmpty()) {
                out.text = text;
                out.pose = m_engine.movePose(s(), unit, m).value_or(fits[i].pose);
                out.refused.clear();
                break;
            }
        }
        return out;
    }

    QString measuredMoveText(int unit, const QString& kind, double angle, double dist) const override {
        if (unit < 0 || unit >= s().units.size())
            return {};
        const QString head = QStringLiteral("move %1 ").arg(s().units[unit].id);
        if (kind == QLatin1String("fwd") || kind == QLatin1String("back") ||
            kind == QLatin1String("aboutface"))
            return head + kind + QLatin1Char(' ') + num(dist);
        if (kind == QLatin1String("wheel") || kind == QLatin1String("oblique"))
            return head + kind + QLatin1Char(' ') + num(angle) + QLatin1Char(' ') + num(dist);
        if (kind == QLatin1String("turn"))
            return head + QStringLiteral("turn %1 %2")
                              .arg(angle >= 0 ? QStringLiteral("left") : QStringLiteral("right"), num(dist));
        if (kind == QLatin1String("side"))
            return head + QStringLiteral("side %1").arg(angle >= 0 ? QStringLiteral("left")
                                                                   : QStringLiteral("right"));
        if (kind == QLatin1String("pivot"))
            return head + QStringLiteral("pivot ") + num(angle);
        return {};
    }

  private:
    const BattleState& s() const { return m_core.s; }

    // A set-up decision (TVBD 10.1-10.6, 16.4, 16.6-16.7) or the end of a step in words.
    QString setupWords(const TAction& a) const {
        const BattleState& st = s();
        const TvbdRules& r = m_engine.rules();
        const QString who = sideName(st.stepSide);
        // the side as the subject: "Sweden recruits", "Swedes recruit"
        auto sv = [&](const char* verb) { return subject(who, verb); };
        const QString their = its(who); // "its" or "their"
        auto id = [&](int u) { return idOf(st.units, u); };
        auto feature = [&](int i) { // "p2 (woods)"
            return i >= 0 && i < st.setup.specs.size()
                       ? QStringLiteral("%1 (%2)").arg(st.setup.specs[i].id, spaced(st.setup.specs[i].type))
                       : QStringLiteral("?");
        };
        auto holds = [&](int k) { // 16.6: what card k holds ("woods medium", "open")
            if (k < 0 || k >= st.setup.cards.size())
                return QStringLiteral("?");
            const TerrainCard& c = st.setup.cards[k];
            return c.type.isEmpty() ? QStringLiteral("open") : c.type + QLatin1Char(' ') + c.size;
        };
        // a table edge by its direction in quarter turns (0 = towards +x, 1 = towards the second side's base
        // edge)
        auto edge = [&](int k) {
            switch (((k % 4) + 4) % 4) {
            case 0:
                return QStringLiteral("the right-hand edge");
            case 1:
                return possessive(sideName(1)) + QStringLiteral(" base edge");
            case 2:
                return QStringLiteral("the left-hand edge");
            default:
                return possessive(sideName(0)) + QStringLiteral(" base edge");
            }
        };
        // 16.6-16.7: where a card's feature lies at an orientation (quarter turns, as edge()): a feature's
        // long side, or a stream, across the table at 0 and 2 and along it at 1 and 3; a bend's stream from
        // the sector's centre towards two edges
        auto lies = [&](const QString& type, int orientation) {
            if (type != QLatin1String("bend"))
                return orientation % 2 == 0 ? QStringLiteral("across the table")
                                            : QStringLiteral("along the table");
            return QStringLiteral("its stream running from the centre towards %1 and %2")
                .arg(edge(orientation), edge(orientation + 1));
        };
        auto line = [&](const TerrainSpec& t) { // "a road from 0,15 to 45,15"
            QStringList pts;
            for (const Vec2& p : t.points)
                pts << at(p);
            return QStringLiteral("a %1 from %2").arg(spaced(t.type), pts.join(QStringLiteral(" to ")));
        };
        auto article = [](const QString& w) {
            return QStringLiteral("aeiou").contains(w.left(1).toLower()) ? QStringLiteral("an ") + w
                                                                         : QStringLiteral("a ") + w;
        };
        const int amount = st.setup.armyCoins > 0 ? st.setup.armyCoins : st.setup.armyUnits;
        const QString unitsOrCoins =
            st.setup.armyCoins > 0 ? QStringLiteral("coins") : QStringLiteral("units");
        switch (a.kind) {
        case TAction::Size: { // 10.1
            const QList<double> t = r.tables.value(a.table);
            return QStringLiteral("%1 %2 a side on the %3 table%4%5")
                .arg(sv("proposes"))
                .arg(QStringLiteral("%1 %2").arg(a.amount).arg(a.coins ? QStringLiteral("coins")
                                                                       : QStringLiteral("units")),
                     spaced(a.table),
                     t.size() >= 2 ? QStringLiteral(" (%1 × %2 TUM)").arg(num(t[0]), num(t[1])) : QString(),
                     st.stepSide == 1 ? QStringLiteral(" instead (final)") : QString());
        }
        case TAction::Agree:
            return QStringLiteral("%1: %2 %3 a side on the %4 table")
                .arg(sv("agrees"))
                .arg(amount)
                .arg(unitsOrCoins, spaced(st.sizeName));
        case TAction::Recruit: { // 10.2, 16.4: what it costs
            const int coins = r.coins(a.recruitType, a.quality, a.large);
            if (a.target < 0)
                return QStringLiteral("%1 a new command with %2 Commander (%3 coins)")
                    .arg(sv("raises"), their)
                    .arg(coins);
            const QString unit =
                QStringLiteral("%1%2 %3").arg(a.large ? QStringLiteral("large ") : QString(),
                                              qualityName(a.quality).toLower(), typeLabel(a.recruitType));
            return QStringLiteral("%1 %2%3 into %4 (%5 coins)")
                .arg(sv("recruits"), article(unit),
                     st.setup.stage == SetupStage::Aggressive ? QStringLiteral(" (bonus, 16.4)") : QString(),
                     a.target < st.commands.size() ? st.commands[a.target].id : QStringLiteral("?"))
                .arg(coins);
        }
        case TAction::Aggressive: // 16.4
            return QStringLiteral("%1 aggressively (%2 bonus %3 of Pike+Shot and Horse; the time limit "
                                  "becomes %4 turns)")
                .arg(sv("attacks"))
                .arg((st.setup.armyCoins > 0 ? 4 : 1) * r.gameSizes.value(st.sizeName).bonus)
                .arg(unitsOrCoins)
                .arg(r.turnLimitAggressive);
        case TAction::Assign: // 10.5 benefit 1
            return QStringLiteral("%1 (%2) moves to command %3 (scouting)")
                .arg(id(a.unit),
                     a.unit >= 0 && a.unit < st.units.size() ? typeLabel(st.units[a.unit].type)
                                                             : QStringLiteral("?"),
                     a.target >= 0 && a.target < st.commands.size() ? st.commands[a.target].id
                                                                    : QStringLiteral("?"));
        case TAction::Place: { // 10.4, 16.6.8
            const TerrainSpec& t = a.terrain;
            if (t.shape == QLatin1String("line") || !t.points.isEmpty())
                return QStringLiteral("%1 %2 (%3)").arg(sv("places"), line(t), t.id);
            const bool ell = t.shape == QLatin1String("ellipse");
            return QStringLiteral("%1 %2 at %3 (%4, %5 × %6 TUM%7)")
                .arg(sv("places"),
                     article(QStringLiteral("%1 %2").arg(t.size.isEmpty() ? QStringLiteral("medium") : t.size,
                                                         spaced(t.type))),
                     at(t.centre), t.id, num(ell ? 2 * t.a : t.a), num(ell ? 2 * t.b : t.b),
                     t.rotation != 0 ? QStringLiteral(", turned %1°").arg(num(t.rotation)) : QString());
        }
        case TAction::Change: { // 10.4 the attacker's change; 16.6-16.7 the terrain cards
            const int other = a.secondary.value(0, -1);
            switch (a.change) {
            case TerrainChange::Remove:
                return QStringLiteral("%1 %2").arg(sv("removes"), feature(a.target));
            case TerrainChange::Move: { // "8 TUM towards the right-hand edge", a diagonal towards two edges
                QStringList towards;
                if (std::abs(a.shift.x) >= 0.005)
                    towards << edge(a.shift.x > 0 ? 0 : 2);
                if (std::abs(a.shift.y) >= 0.005)
                    towards << edge(a.shift.y > 0 ? 1 : 3);
                return QStringLiteral("%1 %2 %3 TUM%4")
                    .arg(sv("moves"), feature(a.target),
                         num(std::round(std::hypot(a.shift.x, a.shift.y) * 10) / 10),
                         towards.isEmpty()
                             ? QString()
                             : QStringLiteral(" towards ") + towards.join(QStringLiteral(" and ")));
            }
            case TerrainChange::Swap:
                return QStringLiteral("%1 %2 and %3").arg(sv("swaps"), feature(a.target), feature(other));
            case TerrainChange::Road:
                return QStringLiteral("%1 %2 as %3").arg(sv("reroutes"), feature(a.target), line(a.terrain));
            case TerrainChange::ToGentle:
                return QStringLiteral("%1 %2 a gentle hill").arg(sv("makes"), feature(a.target));
            case TerrainChange::ToDifficult:
                return QStringLiteral("%1 %2 a difficult hill").arg(sv("makes"), feature(a.target));
            case TerrainChange::CardSwap:
                return QStringLiteral("%1 cards %2 and %3 (%2: %4, %3: %5)")
                    .arg(sv("swaps"))
                    .arg(a.target + 1)
                    .arg(other + 1)
                    .arg(holds(a.target), holds(other));
            case TerrainChange::CardRotate:
                return QStringLiteral("%1 card %2 (%3) to lie %4 (orientation %5)")
                    .arg(sv("turns"))
                    .arg(a.target + 1)
                    .arg(holds(a.target), lies(a.target >= 0 && a.target < st.setup.cards.size()
                                                   ? st.setup.cards[a.target].type
                                                   : QString(),
                                               other))
                    .arg(other);
            case TerrainChange::CardOpen:
                return QStringLiteral("%1 the stream card %2 with an open card")
                    .arg(sv("replaces"))
                    .arg(a.target + 1);
            case TerrainChange::CardBend:
                return QStringLiteral("%1 the stream card %2 with a bend card, %3 (orientation %4)")
                    .arg(sv("replaces"))
                    .arg(a.target + 1)
                    .arg(lies(QStringLiteral("bend"), other))
                    .arg(other);
            case TerrainChange::None:
                break;
            }
            return sv("changes") + QStringLiteral(" the terrain");
        }
        case TAction::Deploy: { // 10.6
            const Unit& u = st.units[a.unit];
            return QStringLiteral("%1 (%2) deploys at %3 facing %4°%5")
                .arg(u.id, typeLabel(u.type), at(a.move.to), num(a.move.angle),
                     a.limbered ? QStringLiteral(", limbered") : QString());
        }
        case TAction::Pass: // 10.5 benefits 3-4
            return QStringLiteral("%1 deploying (scouting): the other side deploys a %2 first")
                .arg(sv("delays"), st.setup.stage == SetupStage::DeployCannon ? QStringLiteral("Cannon")
                                                                              : QStringLiteral("command"));
        case TAction::End:
            break;
        default:
            return {};
        }
        // End: what it ends
        if (st.step == Step::Setup)
            switch (st.setup.stage) {
            case SetupStage::Recruit:
                return QStringLiteral("%1 recruited %2 army").arg(sv("has"), their);
            case SetupStage::Aggressive:
                return st.setup.aggressiveTaken
                           ? QStringLiteral("%1 recruited %2 bonus units").arg(sv("has"), their)
                           : QStringLiteral("%1 no bonus units").arg(sv("takes"));
            case SetupStage::Organise:
                return st.setup.organising ? QStringLiteral("%1 organised %2 commands").arg(sv("has"), their)
                                           : QStringLiteral("%1 %2 commands").arg(sv("keeps"), their);
            case SetupStage::PlaceTerrain:
                return QStringLiteral("%1 no more terrain features").arg(sv("places"));
            case SetupStage::Roads:
                return QStringLiteral("%1 no more roads").arg(sv("places"));
            case SetupStage::TerrainChange:
                return QStringLiteral("%1 no change to the terrain").arg(sv("makes"));
            case SetupStage::TerrainCards:
                return !st.setup.cardSteps.isEmpty() && st.setup.cardSteps.first() == CardSecondStream
                           ? QStringLiteral("%1 the stream cards").arg(sv("keeps"))
                           : QStringLiteral("%1 no card").arg(sv("changes"));
            default:
                return QStringLiteral("%1 the set-up step").arg(sv("ends"));
            }
        static const char* steps[] = {
            "the bombardment", "the initiative", "its movement", "its shooting", "its charge declarations",
            "the evades",      "the battle",     "the set-up"}; // tactical::Step order
        QString step = QString::fromLatin1(steps[int(st.step)]);
        if (step.startsWith(QLatin1String("its ")))
            step.replace(0, 3, their);
        return sv("ends") + QLatin1Char(' ') + step;
    }

    // 12.2.8-12.2.10: every die hits on a 6; the target routs when the hits reach its resolve.
    QString shotOdds(const TAction& a) const {
        const BattleState& st = s();
        if (a.unit < 0 || a.target < 0)
            return {};
        int dice = m_engine.shootingDice(st, a.unit, a.target, true);
        for (int x : a.secondary)
            dice += m_engine.shootingDice(st, x, a.target, false);
        const int resolve = st.units[a.target].resolve;
        return QStringLiteral("%1 dice, 6 to hit (12.2.8-12.2.10): expected %2 hits; a hit %3; %4+ hits "
                              "(routs %5, resolve %4) %6")
            .arg(dice)
            .arg(dec2(dice / 6.0))
            .arg(pct(atLeast(dice, 1.0 / 6, 1)))
            .arg(resolve)
            .arg(st.units[a.target].id)
            .arg(pct(atLeast(dice, 1.0 / 6, resolve)));
    }

    // 14.5: the first melee round's dice at the contact the charge plan gives (an estimate: support,
    // other charges and the defender's other fights are not counted).
    QString chargeOdds(const TAction& a, std::optional<Pose>* end) const {
        const BattleState& st = s();
        const auto plan = m_engine.chargePlan(st, a.unit, a.target);
        if (!plan)
            return {};
        *end = plan->end;
        BattleState at = st;
        at.units[a.unit].pose = plan->end;
        at.units[a.unit].charged = true;
        at.units[a.unit].chargeContact = plan->contactZone;
        const MeleeDice mine = m_engine.meleeDice(at, a.unit, a.target, true);
        const MeleeDice theirs = m_engine.meleeDice(at, a.target, a.unit, true);
        const double pMine = mine.toHit >= 1 && mine.toHit <= 6 ? (7.0 - mine.toHit) / 6 : 0;
        const double pTheirs = theirs.toHit >= 1 && theirs.toHit <= 6 ? (7.0 - theirs.toHit) / 6 : 0;
        const int rt = st.units[a.target].resolve, ru = st.units[a.unit].resolve;
        return QStringLiteral("contact on %1's %2; first melee round (14.5, estimate): %3 dice at %4+ "
                              "(expected %5 hits, %1 routed %6) against %7 dice at %8+ (expected %9, %10 "
                              "routed %11)")
            .arg(st.units[a.target].id, zoneName(plan->contactZone))
            .arg(mine.dice)
            .arg(mine.toHit)
            .arg(dec2(mine.dice * pMine))
            .arg(pct(atLeast(mine.dice, pMine, rt)))
            .arg(theirs.dice)
            .arg(theirs.toHit)
            .arg(dec2(theirs.dice * pTheirs))
            .arg(st.units[a.unit].id)
            .arg(pct(atLeast(theirs.dice, pTheirs, ru)));
    }

    TvbdEngine m_engine;
    Core<BattleState, TvbdEngine, TAction> m_core;
};

// ---- Tercios ---------------------------------------------------------------------------------------------

class TerciosSession : public TacticalSession {
  public:
    TerciosSession(const TerciosRules& rules, const TerciosState& scenario, quint64 seed)
        : m_engine(rules), m_core(m_engine, scenario, seed) {}

    QString ruleset() const override { return QStringLiteral("tercios"); }
    QString rulesetLabel() const override { return QStringLiteral("Brevis Editio: Tercios"); }
    QString title() const override { return s().title; }
    QString measure() const override { return QStringLiteral("in"); }
    double tableW() const override { return s().tableW; }
    double tableD() const override { return s().tableD; }
    QString sideName(int side) const override {
        return side == 0 || side == 1 ? s().sideName[side] : QString();
    }
    QString turnText() const override {
        static const char* phases[] = {"set-up: deployment side",
                                       "set-up: deployment",
                                       "planning",
                                       "initiative",
                                       "activation",
                                       "Ready!",
                                       "Assault!",
                                       "Run!",
                                       "Fire!",
                                       "caracole",
                                       "reaction",
                                       "over"}; // TPhase, in order
        static_assert(std::size(phases) == size_t(TPhase::Over) + 1);
        return QStringLiteral("Turn %1 of %2 — %3; score %4 %5, %6 %7")
            .arg(s().turn)
            .arg(s().turnLimit)
            .arg(QLatin1String(phases[int(s().phase)]), sideName(0))
            .arg(s().score[0])
            .arg(sideName(1))
            .arg(s().score[1]);
    }
    int actor() const override { return m_engine.actor(s()); }
    QString prompt() const override { return m_engine.prompt(s()); }
    bool over() const override { return s().over(); }
    QString resultText() const override {
        if (!s().over())
            return {};
        const QString who = s().winner == 2 ? QStringLiteral("Draw") : subject(sideName(s().winner), "wins");
        return QStringLiteral("%1 (%2) — %3").arg(who, s().level, s().resultReason);
    }
    QStringList log() const override { return s().log; }
    quint64 rolls() const override { return s().rolls; }
    bool canUndo() const override { return !m_core.undo.isEmpty(); }
    bool undo() override { return m_core.takeBack(); }
    QStringList actionTexts() const override { return m_core.texts; }
    QList<QList<int>> handDice() const override { return m_core.dice; }
    QList<battle::TableMove> moves() const override { return m_core.moves(); }

    QList<TacUnitView> units() const override {
        QList<TacUnitView> out;
        const int side = viewingSide();
        // Hidden orders: a side sees its own cards and the opponent's revealed ones (viewFor).
        const TerciosState st = side >= 0 ? viewFor(s(), side) : s();
        for (qsizetype i = 0; i < st.units.size(); ++i) {
            const TUnit& u = st.units[i];
            const TProfile& p = m_engine.profile(st, int(i));
            TacUnitView v;
            v.id = u.id;
            v.name = u.name;
            v.type = p.name;
            v.side = u.side;
            v.onTable = u.onTable();
            v.deployed = u.status != TStatus::Reserve; // Tercios L1503-1505: deployed in the set-up
            v.routed = !u.onTable() && v.deployed;
            v.status = u.onTable()  ? QStringLiteral("on table")
                       : v.deployed ? QStringLiteral("destroyed")
                                    : QStringLiteral("not deployed");
            v.pose = u.pose;
            v.strengthMax = p.stamina;
            v.strength = std::max(0, p.stamina - u.wear);
            v.strengthText = QStringLiteral("W%1/%2").arg(u.wear).arg(p.stamina);
            if (u.card == Card::Hidden)
                v.markers << QStringLiteral("order ?");
            else if (u.card != Card::None)
                v.markers << cardLabel(u.card); // "Ready!"
            if (u.disordered)
                v.markers << QStringLiteral("disordered");
            if (u.onTable() && m_engine.weary(st, int(i)))
                v.markers << QStringLiteral("weary");
            if (u.activated)
                v.markers << QStringLiteral("activated");
            v.tooltip = QStringLiteral("%1 %2 (%3)\n%4 — Wear %5 of Stamina %6\nSpeed %7 Melee %8 Shoot %9 "
                                       "Discipline %10 Courage %11")
                            .arg(u.id, u.name, p.name, v.status)
                            .arg(u.wear)
                            .arg(p.stamina)
                            .arg(p.speed)
                            .arg(p.melee)
                            .arg(m_engine.shootBase(st, int(i)))
                            .arg(p.discipline)
                            .arg(p.courage);
            if (!v.markers.isEmpty())
                v.tooltip += QStringLiteral("\nmarkers: ") + v.markers.join(QStringLiteral(", "));
            out << v;
        }
        return out;
    }

    QList<TacTerrainView> terrain() const override {
        QList<TacTerrainView> out;
        for (const TTerrain& t : s().terrain) {
            TacTerrainView v;
            v.id = t.id;
            v.type = t.type;
            v.cls = (t.features & FImpassable)      ? 3
                    : (t.features & FVeryDifficult) ? 2
                    : (t.features & FDifficult)     ? 1
                                                    : 0;
            v.blocksLOS = t.features & FHidden;
            v.elevated = t.features & FHeight;
            v.linear = t.linear;
            const QString ty = t.type.toLower();
            v.building = ty.contains(QLatin1String("building"));
            v.water = ty.contains(QLatin1String("river")) || ty.contains(QLatin1String("lake")) ||
                      ty.contains(QLatin1String("ford")) || ty.contains(QLatin1String("marsh"));
            v.pieces = {t.poly};
            QStringList f;
            static const char* names[] = {"Difficult", "Very Difficult", "Impassable", "Hidden",
                                          "Covered",   "Height",         "Protected"};
            for (int b = 0; b < 7; ++b)
                if (t.features & (1u << b))
                    f << QLatin1String(names[b]);
            v.description =
                QStringLiteral("%1 (%2): %3")
                    .arg(t.id, t.type,
                         f.isEmpty() ? QStringLiteral("no effect") : f.join(QStringLiteral(", ")));
            out << v;
        }
        return out;
    }

    QList<TacActionView> legalActions() const override {
        QList<TacActionView> out;
        const TerciosState& st = s();
        for (const TcAction& a : m_engine.legalActions(st)) {
            TacActionView v;
            v.text = actionText(st, a);
            // a charge's path, once for its words (a flank charge) and its odds
            std::optional<ChargePath> path;
            if (a.kind == TcAction::Charge)
                path = m_engine.chargePath(st, a.unit, a.target);
            v.label = withNotation(words(a, path), v.text);
            v.unit = a.unit;
            v.target = a.target;
            switch (a.kind) {
            case TcAction::Move: {
                v.kind = TacActionView::Move;
                const Card order = st.phase == TPhase::Run ? Card::Run : Card::Ready;
                if (auto p = m_engine.checkMove(st, a.unit, a.to, order))
                    v.end = *p;
                break;
            }
            case TcAction::Approach:
                v.kind = TacActionView::Move;
                break;
            case TcAction::Fire: {
                v.kind = TacActionView::Shoot;
                const bool ready = st.units[a.unit].card == Card::Ready;
                const ShotOdds o = m_engine.shotOdds(st, a.unit, a.target, ready, false);
                v.odds =
                    QStringLiteral("exact (Tercios L525-572): expected Wear %1 on %2; Disorder %3; "
                                   "destroyed (Break Check failed) %4")
                        .arg(dec2(o.expectedWear), st.units[a.target].id, pct(o.pDisorder), pct(o.pBreak));
                break;
            }
            case TcAction::Charge: {
                v.kind = TacActionView::Charge;
                if (path) {
                    v.end = path->end;
                    const MeleeOdds o = m_engine.meleeOdds(st, a.unit, a.target, path->flank, false);
                    v.odds = QStringLiteral("exact (Tercios L590-712)%1: win %2, draw %3, lose %4; expected "
                                            "Wear %5 on %6, %7 on %8")
                                 .arg(path->flank ? QStringLiteral(", flank charge") : QString(), pct(o.pWin),
                                      pct(o.pDraw), pct(o.pLose), dec2(o.wearOnTarget), st.units[a.target].id,
                                      dec2(o.wearOnAttacker), st.units[a.unit].id);
                }
                break;
            }
            default:
                v.kind = TacActionView::Other;
                break;
            }
            out << v;
        }
        return out;
    }

    bool applyText(const QString& text, const QList<int>& dice, QString* error) override {
        TcAction a;
        QString why;
        if (!parseAction(s(), text, &a, &why)) {
            if (error)
                *error = why;
            return false;
        }
        return m_core.apply(a, dice, error, true, text.simplified());
    }

    int diceNeeded(const QString& text, const QList<int>& dice, QStringList* lines,
                   QString* error) const override {
        TcAction a;
        QString why;
        if (!parseAction(s(), text, &a, &why)) {
            if (error)
                *error = why;
            return -1;
        }
        return m_core.dryRun(a, dice, lines, error);
    }

    // Tercios' simple policy as a chooser for Core::playPolicy.
    auto chooser() const {
        return [this](const TerciosState& st, wp::rules::Rng& rng) {
            return chooseTerciosAction(m_engine, st, false, rng);
        };
    }
    bool hasPolicy(const QString& name) const override { return name == QLatin1String("simple"); }
    int autoResolveRest(const QString& policy) override {
        const QString name = policy.isEmpty() ? computerPolicy() : policy;
        return hasPolicy(name) ? m_core.autoResolve(seed(), chooser(), name) : 0;
    }
    bool applyPolicyAction(QString* text, const QString& policy) override {
        const QString name = policy.isEmpty() ? computerPolicy() : policy;
        return hasPolicy(name) && m_core.playPolicy(seed(), chooser(), name, true, text);
    }
    const TerciosState* terciosState() const override { return &s(); }

    QString publicText(const QString& text) const override {
        // "order U card" -> "order U (a card, face down)"; a shared Brigade card ("order U with V") is
        // announced (Tercios L752).
        const QStringList w = text.simplified().split(QLatin1Char(' '));
        if (w.size() == 3 && w[0].compare(QLatin1String("order"), Qt::CaseInsensitive) == 0)
            return QStringLiteral("order %1 (a card, face down)").arg(w[1]);
        return text;
    }
    bool holdsSecrets() const override {
        const TerciosState v = viewFor(s(), 0), w = viewFor(s(), 1);
        for (qsizetype i = 0; i < v.units.size(); ++i)
            if (v.units[i].card == Card::Hidden || w.units[i].card == Card::Hidden)
                return true;
        return false;
    }

    QString moveToText(int unit, Vec2 to) const override {
        if (unit < 0 || unit >= s().units.size())
            return {};
        return QStringLiteral("move %1 %2,%3")
            .arg(s().units[unit].id, QString::number(to.x, 'f', 2), QString::number(to.y, 'f', 2));
    }
    QString measuredMoveText(int, const QString&, double, double) const override { return {}; }
    DragMove dragMove(int unit, Vec2 delta) const override {
        DragMove out;
        if (unit < 0 || unit >= s().units.size() || delta.length() < 0.05)
            return out;
        out.pose = s().units[unit].pose;
        out.pose.c = out.pose.c + delta;
        out.text = moveToText(unit, m_engine.centre(s().units[unit].pose, 0) + delta); // the Front Centre
        out.refused = refusal(out.text);
        return out;
    }

  private:
    const TerciosState& s() const { return m_core.s; }

    // A Tercios action in words: distances in inches written as the log writes them (4"), directions from the
    // unit's facing. A card is named only for a unit of the side to act (its own, L319).
    // `path`: a charge's path (ChargePath, L601-625), for a flank charge.
    QString words(const TcAction& a, const std::optional<ChargePath>& path) const {
        const TerciosState& st = s();
        auto id = [&](int u) { return idOf(st.units, u); };
        auto ownCard = [&](int u) {
            return u >= 0 && u < st.units.size() && st.units[u].side == actor() &&
                           st.units[u].card != Card::None && st.units[u].card != Card::Hidden
                       ? cardLabel(st.units[u].card)
                       : QString();
        };
        const QString turn = a.dir == 2
                                 ? QStringLiteral("faces about")
                                 : QStringLiteral("turns 90° to the %1")
                                       .arg(a.dir == 1 ? QStringLiteral("left") : QStringLiteral("right"));
        const QString u = id(a.unit), t = id(a.target);
        switch (a.kind) {
        case TcAction::Order: // L319; a Brigade shares a card (L748-756)
            return a.target >= 0 ? QStringLiteral("%1 shares the order card of %2 (Brigade)").arg(u, t)
                                 : QStringLiteral("%1 gets the %2 order").arg(u, cardLabel(a.card));
        case TcAction::First: // L328-332
            return subject(sideName(a.target), "activates") + QStringLiteral(" first");
        case TcAction::Activate: { // L334-336: its card is revealed
            const QString c = ownCard(a.unit);
            return c.isEmpty() ? QStringLiteral("%1 acts").arg(u)
                               : QStringLiteral("%1 acts on its %2 order").arg(u, c);
        }
        case TcAction::Move:
            return u + QLatin1Char(' ') + moveWordsOf(a);
        case TcAction::Face: // a Horse's free face first (Mobility, L764)
            return QStringLiteral("%1 %2%3").arg(
                u, turn, a.mobility ? QStringLiteral(" (Mobility: free)") : QString());
        case TcAction::Fire: // L503-519; an Extended Arc shot from a Side Centre (L774)
            return QStringLiteral("%1 fires at %2%3")
                .arg(u, t,
                     a.dir == 1    ? QStringLiteral(" from its left Centre")
                     : a.dir == -1 ? QStringLiteral(" from its right Centre")
                                   : QString());
        case TcAction::Reorganize:
            return QStringLiteral("%1 reorganizes (removes its Disorder)").arg(u);
        case TcAction::Charge: // L601-625
            return QStringLiteral("%1 charges %2%3")
                .arg(u, t, path && path->flank ? QStringLiteral(" in the flank") : QString());
        case TcAction::Approach: // G12
            return QStringLiteral("%1 advances towards %2 (out of charge reach)").arg(u, t);
        case TcAction::Caracole: // G24
            return QStringLiteral("%1 caracoles: falls back after its shot").arg(u);
        case TcAction::Done:
            return st.phase == TPhase::Caracole ? QStringLiteral("%1 does not caracole").arg(u)
                                                : QStringLiteral("%1 ends its activation").arg(u);
        case TcAction::React: { // L390-432
            const int trig = st.pending.charger >= 0 ? st.pending.charger : st.pending.mover;
            const bool charged = st.pending.charger >= 0 && st.pending.target == a.unit;
            QString what;
            if (a.dir == 2)
                what = QStringLiteral("evades the charge (Horse Evasion)");
            else
                switch (a.unit >= 0 && a.unit < st.units.size() ? st.units[a.unit].card : Card::None) {
                case Card::Ready:
                    what = a.dir == 1 ? QStringLiteral("faces it") : QStringLiteral("fires at it");
                    break;
                case Card::Fire:
                    what = QStringLiteral("fires at it");
                    break;
                case Card::Assault:
                    what = charged ? QStringLiteral("countercharges it") : QStringLiteral("intercepts it");
                    break;
                case Card::Run:
                    what = QStringLiteral("escapes from it");
                    break;
                case Card::Resist:
                    what = QStringLiteral("resists it (Courage+)");
                    break;
                default:
                    what = QStringLiteral("reacts");
                    break;
                }
            const QString c = a.dir == 2 ? QString() : ownCard(a.unit);
            return QStringLiteral("%1 reacts to %2%3: %4")
                .arg(u, id(trig), c.isEmpty() ? QString() : QStringLiteral(" with %1").arg(c), what);
        }
        case TcAction::Decline: {
            const int trig = st.pending.charger >= 0 ? st.pending.charger : st.pending.mover;
            return QStringLiteral("%1 does not react to %2").arg(u, id(trig));
        }
        case TcAction::Side: { // L1501: the edge nearer 0 (low) or the far one (high)
            const bool low = a.target == 0;
            return QStringLiteral("%1 along the %2 edge at %3 = %4\"")
                .arg(subject(sideName(actor()), "deploys"),
                     st.deployLong ? QStringLiteral("long") : QStringLiteral("short"),
                     st.deployLong ? QStringLiteral("y") : QStringLiteral("x"),
                     num(low             ? 0
                         : st.deployLong ? st.tableD
                                         : st.tableW));
        }
        case TcAction::Deploy: { // L1503-1505: a regiment in one line
            if (a.target < 0 || a.target >= st.regiments.size())
                return QStringLiteral("a regiment deploys");
            const TRegiment& r = st.regiments[a.target];
            QStringList ids;
            for (int x : r.units)
                ids << id(x);
            return QStringLiteral("%1 %2 (%3) in a line centred on %4")
                .arg(subject(sideName(r.side), "deploys"), r.id, ids.join(QStringLiteral(", ")), at(a.to));
        }
        }
        return {};
    }

    // A Ready! or Run! move of the Front Centre to a.to in words: its length in inches and its direction
    // from the unit's facing (moves 6" straight ahead; runs 3", 45° to the left, towards B2).
    QString moveWordsOf(const TcAction& a) const {
        const TerciosState& st = s();
        const TUnit& x = st.units[a.unit];
        const Vec2 from = m_engine.centre(x.pose, 0), d = a.to - from;
        const double len = std::round(d.length() * 10) / 10; // to a tenth of an inch
        const Vec2 local = x.pose.toLocal(x.pose.c + d);     // (ahead, to the right)
        const double angle = std::round(std::atan2(-local.y, local.x) * 180 / M_PI / 5) * 5; // left positive
        const QString side = angle > 0 ? QStringLiteral("left") : QStringLiteral("right");
        QString dir;
        if (std::abs(angle) < 1)
            dir = QStringLiteral(" straight ahead");
        else if (std::abs(angle) > 179)
            dir = QStringLiteral(" straight back");
        else if (std::abs(std::abs(angle) - 90) < 1)
            dir = QStringLiteral(" sideways to the ") + side;
        else
            dir = QStringLiteral(", %1° to the %2").arg(num(std::abs(angle)), side);
        QString towards; // a move aimed at an enemy (the list offers those)
        for (qsizetype i = 0; i < st.units.size() && len > 0.05; ++i) {
            const TUnit& e = st.units[i];
            const Vec2 to = e.pose.c - from;
            if (e.side != x.side && e.onTable() && to.length() > 0 &&
                std::abs(to.x * d.y - to.y * d.x) / (to.length() * len) < 0.01 && to.dot(d) > 0) {
                towards = QStringLiteral(", towards ") + e.id;
                break;
            }
        }
        const Card order = st.phase == TPhase::Run ? Card::Run : Card::Ready;
        const int b = m_engine.buildingEntered(st, a.unit, a.to, order);
        return QStringLiteral("%1 %2\"%3%4%5")
            .arg(st.phase == TPhase::Run ? QStringLiteral("runs") : QStringLiteral("moves"), num(len), dir,
                 towards,
                 b >= 0 && b < st.terrain.size() ? QStringLiteral(", into %1").arg(st.terrain[b].id)
                                                 : QString());
    }
    TerciosEngine m_engine;
    Core<TerciosState, TerciosEngine, TcAction> m_core;
};

} // namespace

std::unique_ptr<TacticalSession> TacticalSession::open(const QString& path, quint64 seed, QString* error) {
    {
        QJsonObject root;
        if (readJsonObject(path, &root, error) &&
            root.value(QStringLiteral("format")).toString() == QLatin1String("westphalia-tactical-battle"))
            return openRecord(path, error); // a saved battle: its own seed and actions
    }
    return openScenario(path, seed, error);
}

std::unique_ptr<TacticalSession> TacticalSession::openRecord(const QString& path, QString* error) {
    QJsonObject root;
    QString why;
    if (!readJsonObject(path, &root, &why)) {
        *error = why;
        return nullptr;
    }
    const QString name = QFileInfo(path).fileName();
    if (root.value(QStringLiteral("format")).toString() != QLatin1String("westphalia-tactical-battle")) {
        *error = QStringLiteral("%1: \"format\" is not \"westphalia-tactical-battle\"").arg(name);
        return nullptr;
    }
    const QString scenario = root.value(QStringLiteral("scenario")).toString();
    if (scenario.isEmpty()) {
        *error = QStringLiteral("%1: \"scenario\" is missing").arg(name);
        return nullptr;
    }
    bool seedOk = false;
    const quint64 seed = root.value(QStringLiteral("seed")).toString().toULongLong(&seedOk);
    if (!seedOk) {
        *error = QStringLiteral("%1: \"seed\" must be a number in a string").arg(name);
        return nullptr;
    }
    const QString scenarioPath = QFileInfo(path).dir().absoluteFilePath(scenario);
    auto s = openScenario(scenarioPath, seed, &why);
    if (!s) {
        *error = QStringLiteral("%1: scenario: %2").arg(name, why);
        return nullptr;
    }
    const QJsonArray actions = root.value(QStringLiteral("actions")).toArray();
    QList<battle::TableMove> moves;
    for (qsizetype i = 0; i < actions.size(); ++i) {
        const QJsonObject a = actions[i].toObject();
        battle::TableMove m;
        for (const QJsonValue& d : a.value(QStringLiteral("dice")).toArray()) {
            const int v = d.toInt();
            if (v < 1 || v > 6) {
                *error = QStringLiteral("%1: actions[%2].dice: %3 is not a die").arg(name).arg(i).arg(v);
                return nullptr;
            }
            m.dice << v;
        }
        m.text = a.value(QStringLiteral("action")).toString();
        if (const QJsonValue p = a.value(QStringLiteral("policy"));
            !p.isUndefined() && p != QJsonValue(false))
            if (!battle::policyFromJson(p, &m.policy, &why)) {
                *error = QStringLiteral("%1: actions[%2].policy: %3").arg(name).arg(i).arg(why);
                return nullptr;
            }
        moves << m;
    }
    // The tactical AI's moves are chosen again by this version's AI when the record names its revision;
    // a record of another revision keeps them as played. A record without the field (written before
    // session 10) is tried with this AI first, then kept as played.
    const bool hasAi = std::any_of(moves.begin(), moves.end(), [](const battle::TableMove& m) {
        return m.policy == QLatin1String("tactical");
    });
    int revision = 0;
    if (const QJsonValue v = root.value(QStringLiteral("tacticalAi"));
        !v.isUndefined() && !battle::tacticalAiFromJson(v, &revision, &why)) {
        *error = QStringLiteral("%1: \"tacticalAi\": %2").arg(name, why);
        return nullptr;
    }
    bool asGiven = hasAi && revision != 0 && revision != tactical::kTacticalAiRevision;
    if (!s->replayMoves(moves, &why, asGiven)) {
        QString again;
        std::unique_ptr<TacticalSession> given =
            hasAi && revision == 0 ? openScenario(scenarioPath, seed, &again) : nullptr;
        if (!given || !given->replayMoves(moves, &again, true)) {
            *error = QStringLiteral("%1: %2").arg(name, why);
            return nullptr;
        }
        s = std::move(given);
        asGiven = true;
    }
    if (asGiven)
        s->m_openNote =
            QStringLiteral("%1: its computer moves were chosen by %2 of the tactical AI, which this version "
                           "(revision %3) does not play: they are kept as played, as given moves")
                .arg(name, revision ? QStringLiteral("revision %1").arg(revision)
                                    : QStringLiteral("an older revision"))
                .arg(tactical::kTacticalAiRevision);
    return s;
}

bool TacticalSession::replayMoves(const QList<battle::TableMove>& moves, QString* error,
                                  bool aiMovesAsGiven) {
    for (qsizetype i = 0; i < moves.size(); ++i) {
        const battle::TableMove& m = moves[i];
        QString why, chosen;
        if (m.byPolicy() && !(aiMovesAsGiven && m.policy == QLatin1String("tactical"))) {
            if (!hasPolicy(m.policy))
                why = QStringLiteral("the '%1' policy does not play %2").arg(m.policy, rulesetLabel());
            else if (!applyPolicyAction(&chosen, m.policy))
                why = QStringLiteral("the battle is over");
            else if (chosen != m.text)
                why = QStringLiteral("the policy's move here is '%1'").arg(chosen);
        } else if (!applyText(m.text, m.dice, &why) && why.isEmpty()) {
            why = QStringLiteral("refused");
        }
        if (!why.isEmpty()) {
            *error = QStringLiteral("actions[%1] '%2': %3").arg(i).arg(m.text, why);
            return false;
        }
    }
    return true;
}

bool TacticalSession::saveRecord(const QString& path, QString* error) const {
    const QJsonObject root = battle::tacticalBattleRecord(
        ruleset(), m_seed, QFileInfo(path).absoluteDir().relativeFilePath(m_scenarioPath), moves());
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, f.errorString());
        return false;
    }
    f.write(QJsonDocument(root).toJson(QJsonDocument::Indented));
    if (!f.commit()) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

std::unique_ptr<TacticalSession> TacticalSession::openScenario(const QString& path, quint64 seed,
                                                               QString* error) {
    QJsonObject root;
    QString why;
    if (!readJsonObject(path, &root, &why)) {
        *error = why;
        return nullptr;
    }
    std::unique_ptr<TacticalSession> s = sessionOf(root, path, seed, error);
    if (s) {
        s->m_scenarioPath = QFileInfo(path).absoluteFilePath();
        s->m_seed = seed;
    }
    return s;
}

std::unique_ptr<TacticalSession> TacticalSession::sessionOf(const QJsonObject& root, const QString& path,
                                                            quint64 seed, QString* error) {
    QString why;
    const QString format = root.value(QStringLiteral("format")).toString();
    const QString rules = root.value(QStringLiteral("rules")).toString();
    if (format == QLatin1String("westphalia-tercios-scenario") || rules == QLatin1String("tercios")) {
        const TerciosRules* r = defaultTerciosRules(&why);
        if (!r) {
            *error = why;
            return nullptr;
        }
        TerciosState st;
        if (!terciosScenarioFromJson(root, path, *r, &st, &why)) {
            *error = why;
            return nullptr;
        }
        return std::make_unique<TerciosSession>(*r, st, seed);
    }
    if (format == QLatin1String("westphalia-tactical-scenario")) {
        const TvbdRules* r = defaultTvbdRules(&why);
        if (!r) {
            *error = why;
            return nullptr;
        }
        BattleState st;
        if (!scenarioFromJson(root, path, *r, &st, &why)) {
            *error = why;
            return nullptr;
        }
        return std::make_unique<TvbdSession>(*r, st, seed);
    }
    *error = QStringLiteral("%1: \"format\" is \"%2\"; expected \"westphalia-tactical-scenario\" (TVBD) or "
                            "\"westphalia-tercios-scenario\" (Tercios)")
                 .arg(QFileInfo(path).fileName(), format);
    return nullptr;
}

} // namespace wp
