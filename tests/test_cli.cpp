// westphalia-cli as a user runs it: exit codes, summaries, messages for bad input.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run {
    int code;
    QString out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(WESTPHALIA_CLI), args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
  private slots:
    void help() {
        Run r = cli({"--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("data check") && r.out.contains("map render"));
        for (const char* cmd : {"data", "map"}) {
            Run h = cli({cmd, "--help"});
            QCOMPARE(h.code, 0);
            QVERIFY(h.out.startsWith("usage: westphalia-cli"));
        }
    }

    void badCommandLines() {
        Run r = cli({"frobnicate"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("unknown command 'frobnicate'"));
        r = cli({"data", "check", "--bogus"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("unknown argument '--bogus'"));
        r = cli({"map", "render", "--out", "/tmp/x.gif"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("must end in .png or .svg"));
        r = cli({"map", "render", "--out", "/tmp/x.png", "--width", "abc"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--width abc"));
        r = cli({"map", "render", "--out", "/tmp/x.png", "--scenario", "napoleonic"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("no such scenario"));
        r = cli({"data", "dump"});
        QCOMPARE(r.code, 2);
    }

    // Issue 10: `battle run SCENARIO.json --auto` prints the result; `--odds N` the win probabilities; the
    // shipped TVBD examples (a Breitenfeld-like and a White Mountain-like one) and a Tercios one all run.
    void battleRun() {
        const QString dir = QStringLiteral(WESTPHALIA_SOURCE_DIR "/scenarios/battles/");
        for (const char* f :
             {"tvbd-breitenfeld.json", "tvbd-white-mountain.json", "tercios-white-mountain.json"}) {
            Run r = cli({"battle", "run", dir + QLatin1String(f), "--auto", "--seed", "3"});
            QVERIFY2(r.code == 0, qPrintable(QLatin1String(f) + r.err));
            QVERIFY2(r.out.contains("actions:"), qPrintable(r.out));
        }
        Run tvbd = cli({"battle", "run", dir + "tvbd-white-mountain.json", "--auto", "--seed", "3"});
        QVERIFY(tvbd.out.contains("turns:") && tvbd.out.contains("routed") && tvbd.out.contains("Commander"));
        Run odds = cli({"battle", "run", dir + "tvbd-white-mountain.json", "--rules", "tvbd", "--odds", "4"});
        QCOMPARE(odds.code, 0);
        QVERIFY2(odds.out.contains("%"), qPrintable(odds.out));
        // TVBD auto-resolves with the tactical AI by default (docs/tvbd.md "AI"); --policy simple and the
        // A/B pair still choose the others, and they play other battles
        QVERIFY2(tvbd.out.contains("policy: tactical / tactical"), qPrintable(tvbd.out));
        QVERIFY2(odds.out.contains("policy: tactical / tactical"), qPrintable(odds.out));
        Run tactical = cli({"battle", "run", dir + "tvbd-white-mountain.json", "--auto", "--seed", "3",
                            "--policy", "tactical"});
        Run simple = cli({"battle", "run", dir + "tvbd-white-mountain.json", "--auto", "--seed", "3",
                          "--policy", "simple"});
        Run pair = cli({"battle", "run", dir + "tvbd-white-mountain.json", "--auto", "--seed", "3",
                        "--policy", "simple/tactical"});
        QCOMPARE(tactical.out, tvbd.out);
        QVERIFY2(simple.code == 0 && simple.out.contains("policy: simple / simple"), qPrintable(simple.out));
        QVERIFY2(pair.code == 0 && pair.out.contains("policy: simple / tactical"), qPrintable(pair.out));
        // the battle played: the whole report but the policy line (seed 3 at White Mountain: the AI and the
        // simple policy both break the Bohemians in turn 5, with other losses and actions)
        auto battle = [](QString out) {
            return out.remove(QRegularExpression(QStringLiteral("policy: [^\n]*\n")));
        };
        QVERIFY(battle(simple.out) != battle(tvbd.out));
        QVERIFY(battle(pair.out) != battle(simple.out));
        Run missing = cli({"battle", "run", "/nonexistent/battle.json", "--auto"});
        QCOMPARE(missing.code, 1);
        QVERIFY(missing.err.contains("/nonexistent/battle.json"));
        Run bad = cli({"battle", "run", dir + "tvbd-white-mountain.json", "--rules", "chess"});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("'chess' is not tvbd or tercios"));
        // Issue 11: the same commands with --rules tercios; a ruleset the file is not is named.
        Run terc = cli({"battle", "run", dir + "tercios-breitenfeld.json", "--rules", "tercios", "--seed",
                        "3", "--auto"});
        QVERIFY2(terc.code == 0, qPrintable(terc.err));
        QVERIFY2(terc.out.contains("reason:") && terc.out.contains("Tercios L"), qPrintable(terc.out));
        Run tercOdds =
            cli({"battle", "run", dir + "tercios-breitenfeld.json", "--rules", "tercios", "--odds", "4"});
        QCOMPARE(tercOdds.code, 0);
        QVERIFY2(tercOdds.out.contains("%"), qPrintable(tercOdds.out));
        // --jobs (default: the cores) does not change the odds: every line but the timings is the same
        auto results = [](const QString& out) {
            QStringList kept;
            for (const QString& line : out.split(QLatin1Char('\n')))
                if (!line.startsWith(QLatin1String("time:")) && !line.startsWith(QLatin1String("ms per")) &&
                    !line.startsWith(QLatin1String("cpu:")))
                    kept << line;
            return kept;
        };
        for (const char* rules : {"tvbd", "tercios"}) {
            const QString file = dir + (QLatin1String(rules) == QLatin1String("tvbd")
                                            ? QStringLiteral("tvbd-white-mountain.json")
                                            : QStringLiteral("tercios-breitenfeld.json"));
            const Run one = cli({"battle", "run", file, "--rules", rules, "--odds", "6", "--jobs", "1"});
            const Run three = cli({"battle", "run", file, "--rules", rules, "--odds", "6", "--jobs", "3"});
            QVERIFY2(one.code == 0 && three.code == 0, qPrintable(one.err + three.err));
            QVERIFY2(results(one.out).size() > 3, qPrintable(one.out));
            QCOMPARE(results(three.out), results(one.out));
        }
        Run wrong = cli({"battle", "run", dir + "tercios-breitenfeld.json", "--rules", "tvbd", "--auto"});
        QCOMPARE(wrong.code, 2);
        QVERIFY2(wrong.err.contains("is a tercios scenario, not a tvbd one"), qPrintable(wrong.err));
    }

    void dataCheck() {
        Run r = cli({"data", "check"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("areas: 24"));
        QVERIFY(r.out.contains("independent 17"));
        QVERIFY(r.out.contains("cards catholic: early 15"));
        QVERIFY(r.out.contains("cards protestant: early 14"));
        QVERIFY(r.out.contains("swedish (protestant): 8 veteran") || r.out.contains("swedish (protestant):"));
        QVERIFY(r.out.contains("scenarios:") && r.out.contains("campaign") && r.out.contains("apocalypse"));
        QVERIFY(r.out.contains("OK: no problems found"));
        QVERIFY(r.err.isEmpty());
    }

    void dataCheckReportsBrokenData() {
        QTemporaryDir tmp;
        for (const char* sub : {"maps", "cards", "scenarios"}) {
            QDir src(QStringLiteral(WESTPHALIA_SOURCE_DIR "/") + sub);
            QDir().mkpath(tmp.path() + "/" + sub);
            for (const QString& f : src.entryList({"*.json"}, QDir::Files))
                QVERIFY(QFile::copy(src.filePath(f), tmp.path() + "/" + sub + "/" + f));
        }
        QFile f(tmp.path() + "/cards/cards.json");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{ \"format\": 1, \"cards\": [ }");
        f.close();
        Run r = cli({"data", "check", "--data", tmp.path()});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("is invalid"));
        QVERIFY(r.err.contains("cards/cards.json: line 1, column"));
        QVERIFY(r.err.contains("malformed JSON"));
        // The app refuses to start on it too, saying why.
        QProcess gui;
        gui.start(QStringLiteral(WESTPHALIA_GUI),
                  {"--data", tmp.path(), "--screenshot", tmp.path() + "/x.png"});
        QVERIFY(gui.waitForFinished(60000));
        QCOMPARE(gui.exitCode(), 1);
        QVERIFY(QString::fromUtf8(gui.readAllStandardError()).contains("cards/cards.json"));
    }

    void dump() {
        Run r = cli({"data", "dump", "--json"});
        QCOMPARE(r.code, 0);
        QJsonParseError pe;
        QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &pe);
        QCOMPARE(pe.error, QJsonParseError::NoError);
        QCOMPARE(doc["areas"].toArray().size(), 24);
        QCOMPARE(doc["cards"].toArray().size(), 110);
        QCOMPARE(doc["fingerprint"].toString().size(), 64);
    }

    void renderPngAndSvg() {
        QTemporaryDir tmp;
        const QString png = tmp.path() + "/campaign.png";
        Run r = cli({"map", "render", "--out", png, "--scenario", "campaign", "--width", "900"});
        QCOMPARE(r.code, 0);
        QImage img(png);
        QCOMPARE(img.width(), 900);
        QVERIFY(img.height() > 500);
        const QString svg = tmp.path() + "/map.svg";
        r = cli({"map", "render", "--out", svg});
        QCOMPARE(r.code, 0);
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.count("<path") > 100);
        // An unwritable destination is reported, not a crash.
        r = cli({"map", "render", "--out", "/nonexistent-dir/map.png"});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("cannot write /nonexistent-dir/map.png"));
    }

    void guiScreenshot() {
        QTemporaryDir tmp;
        const QString shot = tmp.path() + "/window.png";
        QProcess gui;
        gui.start(QStringLiteral(WESTPHALIA_GUI), {"--screenshot", shot, "--scenario", "intervention"});
        QVERIFY(gui.waitForFinished(60000));
        QCOMPARE(gui.exitCode(), 0);
        QVERIFY(QImage(shot).width() >= 800);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
