// westphalia-cli pbem: play by e-mail between two copies, each in its own directory holding only its own
// secrets (issue 7, docs/pbem.md).
#include "cli_commands.h"
#include "cli_game.h"
#include "cli_util.h"

#include "rules/invariants.h"
#include "rules/position.h"
#include "save/pbem.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>

namespace wp::cli {

namespace {

const char* kPbemUsage = R"USAGE(usage: westphalia-cli pbem <subcommand> --dir DIR [options]

  new --side catholic|protestant --scenario ID [--option K=V]... [--dice sealed|open] [--out FILE]
        create a game in DIR (your secrets stay there) and write the start file for your opponent
  join START_FILE [--out FILE]
        join the game of a start file; writes your answer
  import-turn FILE
        verify the opponent's file and replay it; prints what happened (with the dice) or, if anything
        was tampered with, what and where (exit code 1, nothing imported)
  play ACTION... | play --random SEED [--max N]
        play your actions (text notation, docs/actions.md), or let a random player choose among the
        legal ones until the file must go
  export-turn [--out FILE] [--reveal]
        write your file: your actions since your last file. --reveal adds your deck secret (at the end
        of the game, or to end it by agreement)
  status [--legal] [--state-json]
        the game, whose move it is, your legal actions, your view of the state
  verify
        verify the whole game (both secrets revealed): every action with the true hands
  orders [--set KEY=VALUE]...
        show your standing orders and the opponent's, or set yours (VALUE ask removes one). They go, in
        clear, with your next file; the opponent's copy then takes these decisions for you without a
        file:%1

Files are named <game>-t<turn>-<side>-s<seq>.pbem; without --out they go to DIR/outbox/.
Exit codes: 0 success, 1 a problem (a tampered file, an illegal action, ...), 2 bad command line.
)USAGE";

QString ordersHelp() {
    QString h;
    for (const QString& k : save::StandingOrders::keys())
        h += QStringLiteral("\n          %1: %2").arg(k, save::StandingOrders::help(k));
    return h;
}

bool writeOut(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        err() << "westphalia-cli pbem: " << path << ": cannot write: " << f.errorString() << "\n";
        return false;
    }
    out() << "wrote " << path << "\n";
    return true;
}

bool readIn(const QString& path, QByteArray* bytes) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        err() << "westphalia-cli pbem: " << path << ": cannot read: " << f.errorString() << "\n";
        return false;
    }
    *bytes = f.readAll();
    return true;
}

} // namespace

int pbemCommand(const QStringList& args) {
    const QString sub = args.value(0);
    const QString usage = QString::fromUtf8(kPbemUsage).arg(ordersHelp());
    const QByteArray usageBytes = usage.toUtf8();
    ArgParser ap(args.mid(1), usageBytes.constData());
    if (sub.isEmpty() || sub == QLatin1String("--help") || sub == QLatin1String("-h") || ap.helpRequested()) {
        out() << usage;
        return sub.isEmpty() ? 2 : 0;
    }
    const QString dir = ap.value(QStringLiteral("--dir"));
    const QString dataDir = ap.value(QStringLiteral("--data"));
    const QString outFile = ap.value(QStringLiteral("--out"));
    QString problem = dir.isEmpty() ? QStringLiteral("pbem %1 needs --dir DIR").arg(sub) : QString();
    static const QStringList subs{"new",         "join",   "import-turn", "play",
                                  "export-turn", "status", "verify",      "orders"};
    if (!subs.contains(sub)) {
        err() << "westphalia-cli pbem: unknown subcommand '" << sub << "'\n\n" << usage;
        return 2;
    }
    // subcommand options
    const QString sideText = ap.value(QStringLiteral("--side"));
    const QString scenario = ap.value(QStringLiteral("--scenario"));
    const QStringList options = allValues(ap, QStringLiteral("--option"));
    const QStringList orderSets = allValues(ap, QStringLiteral("--set"));
    const QString diceText = ap.value(QStringLiteral("--dice"));
    const QString randomText = ap.value(QStringLiteral("--random"));
    const QString maxText = ap.value(QStringLiteral("--max"));
    const bool reveal = ap.flag(QStringLiteral("--reveal"));
    const bool wantLegal = ap.flag(QStringLiteral("--legal"));
    const bool wantJson = ap.flag(QStringLiteral("--state-json"));
    QStringList positionals;
    for (QString p = ap.positional(); !p.isEmpty(); p = ap.positional())
        positionals << p;
    if (sub == QLatin1String("new")) {
        if (sideText != QLatin1String("catholic") && sideText != QLatin1String("protestant") &&
            problem.isEmpty())
            problem = QStringLiteral("pbem new needs --side catholic|protestant");
        if (scenario.isEmpty() && problem.isEmpty())
            problem = QStringLiteral("pbem new needs --scenario ID");
        if (!diceText.isEmpty() && diceText != QLatin1String("sealed") && diceText != QLatin1String("open") &&
            problem.isEmpty())
            problem = QStringLiteral("--dice %1: expected sealed or open").arg(diceText);
    }
    if ((sub == QLatin1String("join") || sub == QLatin1String("import-turn")) && positionals.size() != 1 &&
        problem.isEmpty())
        problem = QStringLiteral("pbem %1 needs one FILE").arg(sub);
    if (sub == QLatin1String("play") && positionals.isEmpty() && randomText.isEmpty() && problem.isEmpty())
        problem = QStringLiteral("pbem play needs ACTION... or --random SEED");
    if (sub != QLatin1String("play") && sub != QLatin1String("join") && sub != QLatin1String("import-turn") &&
        !positionals.isEmpty() && problem.isEmpty())
        problem = QStringLiteral("unexpected argument '%1'").arg(positionals.first());
    if (!orderSets.isEmpty() && sub != QLatin1String("orders") && problem.isEmpty())
        problem = QStringLiteral("--set belongs to pbem orders");
    if (!ap.finish(problem))
        return 2;

    LoadResult data;
    if (!loadData(dataDir, data))
        return 1;
    save::PbemSession session(data.data);
    QString error;
    auto fail = [&](const QString& what) {
        err() << "westphalia-cli pbem: " << what << "\n";
        return 1;
    };
    auto outPath = [&](const QString& name) {
        return outFile.isEmpty() ? dir + QStringLiteral("/outbox/") + name : outFile;
    };

    if (sub == QLatin1String("new") || sub == QLatin1String("join")) {
        if (QFile::exists(dir + QStringLiteral("/session.json")))
            return fail(dir + QStringLiteral(": already holds a game (session.json); use another directory"));
        QByteArray file;
        if (sub == QLatin1String("new")) {
            if (!session.create(scenario, options,
                                sideText == QLatin1String("catholic") ? rules::kCatholic : rules::kProtestant,
                                diceText == QLatin1String("open") ? save::DiceMode::Open
                                                                  : save::DiceMode::Sealed,
                                &file, &error))
                return fail(error);
        } else {
            QByteArray start;
            if (!readIn(positionals[0], &start))
                return 1;
            if (!session.join(start, positionals[0], &file, &error))
                return fail(error);
        }
        if (!session.saveTo(dir, &error))
            return fail(error);
        const QString name =
            QStringLiteral("%1-%2-s%3.pbem")
                .arg(session.gameId().left(8), sub == QLatin1String("new") ? "start" : "join")
                .arg(session.fileCount());
        if (!writeOut(outPath(name), file))
            return 1;
        out() << session.status() << "\n";
        return 0;
    }

    if (!session.loadFrom(dir, &error))
        return fail(error);

    if (sub == QLatin1String("import-turn")) {
        QByteArray bytes;
        if (!readIn(positionals[0], &bytes))
            return 1;
        QStringList happened;
        if (!session.importFile(bytes, positionals[0], &error, &happened)) {
            err() << "REJECTED " << error << "\n";
            return 1;
        }
        if (!session.saveTo(dir, &error))
            return fail(error);
        out() << "imported " << positionals[0] << "\n";
        if (!happened.isEmpty())
            out() << "what happened:\n" << happened.join(QLatin1Char('\n')) << "\n";
        out() << session.status() << "\n";
        return 0;
    }
    if (sub == QLatin1String("play")) {
        // the actions the opponent's standing orders took after one of this side's
        auto ordered = [&](qsizetype before) {
            const QStringList p = session.pendingActions();
            for (qsizetype k = before + 1; k < p.size(); ++k)
                out() << "  " << p[k] << "   (for the opponent, by his standing orders)\n";
        };
        if (!randomText.isEmpty()) {
            rules::Rng pick(randomText.toULongLong() * 2654435761ULL +
                            static_cast<uint64_t>(session.allActions().size()));
            int n = 0;
            const int max = maxText.isEmpty() ? 100000 : maxText.toInt();
            while (session.canPlay() && n < max) {
                const auto legal = session.legalActions();
                const auto& a = legal[rules::chooseRandomAction(
                    session.engine().data(), session.state(), legal, rules::RandomPolicy::Aggressive, pick)];
                const QString text = rules::formatAction(session.engine().data(), session.state(), a);
                bool sealed = false;
                const qsizetype before = session.pendingActions().size();
                const rules::ApplyResult r = session.play(a, &sealed);
                if (!r.ok)
                    return fail(QStringLiteral("'%1': %2").arg(text, r.error));
                out() << text << (sealed ? "   (dice sealed: resolved by the opponent's copy)" : "") << "\n";
                ordered(before);
                ++n;
            }
        }
        for (const QString& text : positionals) {
            if (!session.canPlay())
                return fail(QStringLiteral("'%1': not your decision now\n%2").arg(text, session.status()));
            auto a = rules::parseAction(session.engine().data(), session.state(), text, &error);
            if (!a)
                return fail(QStringLiteral("'%1': %2").arg(text, error));
            bool sealed = false;
            const qsizetype before = session.pendingActions().size();
            const rules::ApplyResult r = session.play(*a, &sealed);
            if (!r.ok)
                return fail(QStringLiteral("'%1': %2").arg(text, r.error));
            out() << text << (sealed ? "   (dice sealed: resolved by the opponent's copy)" : "") << "\n";
            ordered(before);
        }
        if (!session.saveTo(dir, &error))
            return fail(error);
        out() << session.status() << "\n";
        return 0;
    }
    if (sub == QLatin1String("export-turn")) {
        QByteArray bytes;
        QString name;
        if (!session.exportFile(&bytes, &name, reveal, &error))
            return fail(error);
        if (!writeOut(outPath(name), bytes))
            return 1;
        if (!session.saveTo(dir, &error))
            return fail(error);
        out() << session.status() << "\n";
        return 0;
    }
    if (sub == QLatin1String("status")) {
        out() << session.status() << "\n";
        if (wantLegal)
            for (const rules::Action& a : session.legalActions())
                out() << rules::formatAction(session.engine().data(), session.state(), a) << "\n";
        if (wantJson && session.started())
            out() << QJsonDocument(rules::stateToJson(session.engine(), session.state()))
                         .toJson(QJsonDocument::Indented);
        return 0;
    }
    if (sub == QLatin1String("orders")) {
        if (!orderSets.isEmpty()) {
            save::StandingOrders orders = session.myOrders();
            for (const QString& kv : orderSets)
                if (!orders.set(session.engine().data(), kv, &error))
                    return fail(QStringLiteral("--set %1").arg(error));
            if (!session.setMyOrders(orders, &error) || !session.saveTo(dir, &error))
                return fail(error);
        }
        const save::StandingOrders mine = session.myOrders();
        out() << "your standing orders" << (mine == session.sentOrders() ? "" : " (sent with your next file)")
              << ":\n";
        for (const QString& k : save::StandingOrders::keys())
            out() << "  " << k << "=" << mine.value(k) << "\n";
        out() << "the opponent's standing orders (applied by this copy in your next file): "
              << session.opponentOrders().text() << "\n";
        return 0;
    }
    // verify
    QString report;
    const bool ok = session.verifyGame(&report);
    (ok ? out() : err()) << report << "\n";
    return ok ? 0 : 1;
}

} // namespace wp::cli
