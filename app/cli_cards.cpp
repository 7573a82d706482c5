// westphalia-cli cards coverage: every card with its event's implementation and test status (issue 5).
#include "cli_commands.h"
#include "cli_util.h"

#include "rules/events.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace wp::cli {

namespace {

// An Event with an effect: an apply, or for a combat card (9.5) a combat effect.
bool implemented(const Card& cd) {
    const rules::EventDef* ev = rules::EventRegistry::instance().find(cd.id);
    if (!ev)
        return false;
    if (!cd.combat)
        return static_cast<bool>(ev->apply);
    const rules::CombatCardEffect& e = ev->combat;
    return e.ownDrm || e.enemyDrm || e.ownShift || e.enemyShift || ev->combatEffect;
}

} // namespace

int cardsCommand(const QStringList& argsIn) {
    static const char* usage =
        R"(usage: westphalia-cli cards coverage [--side catholic|protestant] [--missing]
                                  [--json] [--strict] [--tests FILE] [--data DIR]

coverage  lists every card (C1-C55, P1-P55) with its event's status:
            implemented  the card has an Event with an effect (for a combat card, a combat effect);
            tested       tests/card-tests.json names test functions that play it (the test
                         test_events_catholic::cardTestsAreHonest checks that they exist);
          then the totals per side.
--missing   only the cards not both implemented and tested
--strict    exit 1 unless every listed card is implemented and tested
--tests     the card -> tests file (default: tests/card-tests.json next to the data)
)";
    ArgParser ap(argsIn, usage);
    if (ap.helpRequested()) {
        out() << usage;
        return 0;
    }
    const QString sub = ap.positional();
    const QString dir = ap.value(QStringLiteral("--data"));
    QString testsFile = ap.value(QStringLiteral("--tests"));
    const QString sideArg = ap.value(QStringLiteral("--side"));
    const bool missing = ap.flag(QStringLiteral("--missing"));
    const bool json = ap.flag(QStringLiteral("--json"));
    const bool strict = ap.flag(QStringLiteral("--strict"));
    QString problem;
    if (sub.isEmpty())
        problem = QStringLiteral("missing subcommand (coverage)");
    else if (!sideArg.isEmpty() && !sideFromId(sideArg))
        problem = QStringLiteral("--side must be catholic or protestant");
    if (!ap.finish(problem))
        return 2;
    if (sub != QLatin1String("coverage")) {
        err() << "westphalia-cli cards: unknown subcommand '" << sub << "'\n" << usage;
        return 2;
    }
    LoadResult r;
    if (!loadData(dir, r))
        return 1;
    const GameData& d = *r.data;
    rules::registerBuiltinEvents();

    if (testsFile.isEmpty())
        testsFile = d.dataDir + QStringLiteral("/tests/card-tests.json");
    QJsonObject tests;
    QFile f(testsFile);
    if (f.open(QIODevice::ReadOnly)) {
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
        if (pe.error != QJsonParseError::NoError) {
            err() << "westphalia-cli cards: " << testsFile << ": " << pe.errorString() << "\n";
            return 1;
        }
        tests = doc.object().value(QStringLiteral("tests")).toObject();
    } else {
        err() << "westphalia-cli cards: no test list at " << testsFile
              << " (every card counts as untested)\n";
    }

    const std::optional<Side> only = sideArg.isEmpty() ? std::nullopt : sideFromId(sideArg);
    int impl[2] = {0, 0}, tested[2] = {0, 0}, total[2] = {0, 0};
    QJsonArray rows;
    QStringList lines;
    for (const Card& cd : d.cards) {
        if (only && cd.side != *only)
            continue;
        const int s = cd.side == Side::Catholic ? 0 : 1;
        const bool isImpl = implemented(cd);
        const QJsonArray fns = tests.value(cd.id).toArray();
        const bool isTested = !fns.isEmpty();
        ++total[s];
        impl[s] += isImpl;
        tested[s] += isTested;
        if (missing && isImpl && isTested)
            continue;
        QJsonObject row{{"id", cd.id},         {"side", sideId(cd.side)}, {"title", cd.title},
                        {"combat", cd.combat}, {"implemented", isImpl},   {"tested", isTested},
                        {"tests", fns}};
        rows.append(row);
        lines << QStringLiteral("%1  %2  %3  %4  %5")
                     .arg(cd.id, -4)
                     .arg(cd.title.left(44), -44)
                     .arg(cd.combat ? QStringLiteral("combat") : QStringLiteral("event "))
                     .arg(isImpl ? QStringLiteral("implemented") : QStringLiteral("-          "))
                     .arg(isTested ? QStringLiteral("tested (%1)").arg(fns.size()) : QStringLiteral("-"));
    }
    const bool complete =
        impl[0] + impl[1] == total[0] + total[1] && tested[0] + tested[1] == total[0] + total[1];
    if (json) {
        QJsonObject totals;
        for (int s : {0, 1})
            totals.insert(sideId(s == 0 ? Side::Catholic : Side::Protestant),
                          QJsonObject{{"cards", total[s]}, {"implemented", impl[s]}, {"tested", tested[s]}});
        out() << QJsonDocument(QJsonObject{{"cards", rows}, {"totals", totals}})
                     .toJson(QJsonDocument::Indented);
    } else {
        for (const QString& l : lines)
            out() << l.trimmed() << "\n";
        out() << "\n";
        for (int s : {0, 1}) {
            if (total[s] == 0)
                continue;
            out() << QStringLiteral("%1: %2/%3 implemented, %4/%3 tested\n")
                         .arg(s == 0 ? QStringLiteral("Catholic  ") : QStringLiteral("Protestant"))
                         .arg(impl[s])
                         .arg(total[s])
                         .arg(tested[s]);
        }
        out() << QStringLiteral("All       : %1/%2 implemented, %3/%2 tested\n")
                     .arg(impl[0] + impl[1])
                     .arg(total[0] + total[1])
                     .arg(tested[0] + tested[1]);
    }
    return strict && !complete ? 1 : 0;
}

} // namespace wp::cli
