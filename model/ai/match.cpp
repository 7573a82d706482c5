#include "ai/match.h"
#include "ai/referee.h"

#include <QElapsedTimer>

#include <algorithm>
#include <ctime>

namespace wp::ai {

using namespace wp::rules;

namespace {
double cpuNow() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}
// the Areas whose control at the end the feature rows give (5.22: the Catholic's three)
const char* const kFinalAreas[] = {"austria", "bavaria", "spanish-netherlands"};
} // namespace

QString featureHeader() {
    QStringList h{QStringLiteral("# turn last-turn side")};
    for (const QString& n : valueFeatureNames())
        h << n;
    h << QStringLiteral("| winner vp end-turn");
    for (const char* a : kFinalAreas)
        h << QLatin1String(a);
    h << QStringLiteral("catholic-bot protestant-bot");
    return h.join(QLatin1Char(' '));
}

MatchResult playMatch(const Engine& engine, const GameState& start, Bot* bots[2], int maxActions,
                      bool keepReasons, bool keepFeatures) {
    MatchResult r;
    GameState s = start;
    const GameData& d = engine.data();
    while (!s.gameOver && r.actions < maxActions) {
        const int side = engine.actor(s);
        if (side != kCatholic && side != kProtestant) {
            r.ok = false;
            r.error = QStringLiteral("no actor: %1").arg(engine.prompt(s));
            break;
        }
        QElapsedTimer t;
        t.start();
        const double cpu0 = cpuNow();
        // the tabletop decisions of linked battles are the referee's, from the real state (referee.h)
        const std::optional<Decision> table = tableDecision(engine, s, side);
        const Decision dec = table ? *table : bots[side]->decide(SideView(engine, s, side)); // never `s`
        const double secs = static_cast<double>(t.nsecsElapsed()) / 1e9;
        r.decisionSeconds[side].push_back(secs);
        const double cpu = cpuNow() - cpu0;
        r.decisionCpu[side].push_back(cpu);
        if (s.frames.size() == 1 && std::holds_alternative<TurnFrame>(s.frames.front()) &&
            std::get<TurnFrame>(s.frames.front()).phase == Phase::Action) {
            r.cardRoundSeconds[side].push_back(secs);
            r.cardRoundCpu[side].push_back(cpu);
            if (keepFeatures) {
                QStringList row{QString::number(s.turn), QString::number(s.lastTurn), QString::number(side)};
                for (double x : valueFeatures(d, s))
                    row << QString::number(x, 'g', 6);
                r.featureRows << row.join(QLatin1Char(' '));
            }
        }
        const QString text = formatAction(d, s, dec.action);
        const ApplyResult ar = engine.apply(s, dec.action);
        if (!ar.ok) {
            r.ok = false;
            r.error = QStringLiteral("%1 chose '%2', refused: %3").arg(bots[side]->name(), text, ar.error);
            break;
        }
        r.actionTexts << text;
        if (keepReasons)
            r.reasons[side] << text + QStringLiteral(" — ") + dec.reason;
        ++r.actions;
    }
    if (keepFeatures && s.gameOver) {
        QString outcome = QStringLiteral(" | %1 %2 %3").arg(s.winner).arg(s.vp).arg(s.turn);
        for (const char* id : kFinalAreas) {
            const int a = d.area(QLatin1String(id));
            outcome += QLatin1Char(' ') +
                       QString::number(a >= 0 ? int(s.areas[static_cast<size_t>(a)].control) : int(kNone));
        }
        // who played the Catholic and the Protestant (a fit can tell, say, the search bot's own games apart)
        outcome += QStringLiteral(" %1 %2").arg(bots[kCatholic]->name(), bots[kProtestant]->name());
        for (QString& row : r.featureRows)
            row += outcome;
    } else {
        r.featureRows.clear(); // an unfinished game has no outcome to learn from
    }
    r.finished = s.gameOver;
    r.winner = s.gameOver ? s.winner : static_cast<int8_t>(kNone);
    r.vp = s.vp;
    r.turn = s.turn;
    r.result = s.gameOver ? s.result : QStringLiteral("unfinished after %1 actions").arg(r.actions);
    return r;
}

} // namespace wp::ai
