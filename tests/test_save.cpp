// Save files (issue 7, model/save/savefile.h, docs/saves.md): round trips, every kind of broken file
// with its message, atomic writes, the step-through replay, the CLI, and a mutation fuzz of the loader.
#include "data/loader.h"
#include "rules/game.h"
#include "rules/invariants.h"
#include "rules/position.h"
#include "save/pbem.h"
#include "save/savefile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace wp;
using namespace wp::rules;

namespace {

std::shared_ptr<const GameData> data() {
    static std::shared_ptr<const GameData> d = [] {
        LoadResult r = loadGameData(QStringLiteral(WESTPHALIA_SOURCE_DIR));
        if (!r.ok())
            qFatal("the shipped data does not load: %s", qPrintable(r.errors.joined()));
        return r.data;
    }();
    return d;
}

struct Run {
    int code;
    QString out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(WESTPHALIA_CLI), args + QStringList{"--data", WESTPHALIA_SOURCE_DIR});
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

// A game played by the random player (the engine's legal actions only), `n` actions or to its end.
std::unique_ptr<Game> randomGame(const QString& scenario, uint64_t seed, int n) {
    auto g = std::make_unique<Game>(data());
    QString error;
    if (!g->start(scenario, GameOptions{}, seed, &error))
        qFatal("%s", qPrintable(error));
    Rng pick(seed * 7919 + 1);
    for (int i = 0; i < n && !g->state().gameOver; ++i) {
        const auto legal = g->legalActions();
        const ApplyResult r =
            g->play(legal[chooseRandomAction(g->data(), g->state(), legal, RandomPolicy::Aggressive, pick)]);
        if (!r.ok)
            qFatal("a legal action was refused: %s", qPrintable(r.error));
    }
    return g;
}

QByteArray inflate(const QByteArray& gz) {
    QByteArray raw;
    QString error;
    if (!save::gzipDecompress(gz, &raw, &error))
        qFatal("%s", qPrintable(error));
    return raw;
}

QJsonObject jsonOf(const save::SaveGame& g) {
    return QJsonDocument::fromJson(inflate(save::serialize(g))).object();
}

QByteArray gz(const QJsonObject& o) {
    return save::gzipCompress(QJsonDocument(o).toJson());
}

// parse + replay of raw bytes; returns the error ("" if it loads).
QString loadBytes(const QByteArray& bytes, const QString& name = QStringLiteral("g.tyw")) {
    QString error;
    auto g = save::parse(bytes, name, &error);
    if (!g)
        return error;
    Game game(data());
    if (!save::replay(*g, name, game, &error))
        return error;
    return {};
}

} // namespace

class TestSave : public QObject {
    Q_OBJECT
  private slots:
    void gzipIsRealGzip();
    void roundTrip();
    void roundTripFinishedGame();
    void brokenFiles_data();
    void brokenFiles();
    void illegalActionNamesIndexTextAndReason();
    void editedLogBreaksHashChain();
    void atomicWriteKeepsOldFile();
    void stepReplayForwardAndBackward();
    void cliVerifyAndReplay();
    void fuzzSaveDir();
    void fuzzLoader();
    void realFixtureFiles();
};

void TestSave::gzipIsRealGzip() {
    const QByteArray text = "{\"hello\": \"Westphalia\"}\n";
    const QByteArray z = save::gzipCompress(text);
    QVERIFY(z.size() > 18);
    QCOMPARE(static_cast<uint8_t>(z[0]), uint8_t(0x1f)); // RFC 1952 magic, deflate method
    QCOMPARE(static_cast<uint8_t>(z[1]), uint8_t(0x8b));
    QCOMPARE(static_cast<uint8_t>(z[2]), uint8_t(8));
    QCOMPARE(inflate(z), text);
    const QString gzip = QStandardPaths::findExecutable(QStringLiteral("gzip"));
    if (gzip.isEmpty())
        QSKIP("no gzip on PATH to check zcat compatibility");
    QProcess p; // what `zcat game.tyw` does
    p.start(gzip, {"-dc"});
    p.write(z);
    p.closeWriteChannel();
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitCode(), 0);
    QCOMPARE(p.readAllStandardOutput(), text);
}

void TestSave::roundTrip() {
    auto game = randomGame(QStringLiteral("campaign"), 11, 250);
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("g.tyw"));
    QString error;
    QVERIFY2(save::writeFile(path, save::fromGame(*game), &error), qPrintable(error));
    auto loaded = save::load(data(), path, &error);
    QVERIFY2(loaded, qPrintable(error));
    QCOMPARE(loaded->actions(), game->actions());
    QVERIFY(loaded->state() == game->state()); // the replayed state is the played one
    QCOMPARE(loaded->seed(), game->seed());
    // readable JSON inside
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(inflate(f.readAll())).object();
    QCOMPARE(o.value("format").toString(), QStringLiteral("westphalia-save"));
    QCOMPARE(o.value("version").toInt(), save::kFormatVersion);
    QCOMPARE(o.value("actions").toArray().size(), game->actions().size());
    QCOMPARE(o.value("data").toString().toLatin1(), data()->fingerprint);
}

void TestSave::roundTripFinishedGame() {
    for (uint64_t seed : {3u, 4u}) {
        auto game = randomGame(seed == 3 ? QStringLiteral("early-war") : QStringLiteral("intervention"), seed,
                               100000);
        QVERIFY(game->state().gameOver);
        save::SaveGame g = save::fromGame(*game);
        g.extra.insert(QStringLiteral("note"), QStringLiteral("kept")); // other tools' sections survive
        QString error;
        auto back = save::parse(save::serialize(g), QStringLiteral("x.tyw"), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->extra.value("note").toString(), QStringLiteral("kept"));
        Game replayed(data());
        QVERIFY2(save::replay(*back, QStringLiteral("x.tyw"), replayed, &error), qPrintable(error));
        QVERIFY(replayed.state() == game->state());
        QCOMPARE(replayed.state().result, game->state().result);
    }
}

void TestSave::brokenFiles_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expect");
    auto game = randomGame(QStringLiteral("campaign"), 5, 120);
    const save::SaveGame g = save::fromGame(*game);
    const QByteArray good = save::serialize(g);
    const QJsonObject o = jsonOf(g);
    QTest::newRow("empty") << QByteArray() << "g.tyw: the file is empty";
    QTest::newRow("truncated") << good.left(good.size() / 2) << "g.tyw: truncated";
    QTest::newRow("not gzip") << QJsonDocument(o).toJson() << "g.tyw: not a gzip file";
    QByteArray garbage = good;
    garbage.append("tail");
    QTest::newRow("trailing garbage") << garbage << "garbage after the end of the gzip data";
    QByteArray corrupt = good;
    for (qsizetype i = 20; i < 40; ++i)
        corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
    QTest::newRow("corrupt deflate") << corrupt << "g.tyw: corrupt gzip data near byte";
    QTest::newRow("bad JSON") << save::gzipCompress(
                                     "{\n \"format\": \"westphalia-save\",\n \"version\": 1,,\n}")
                              << "g.tyw: bad JSON at line 3";
    QTest::newRow("not an object") << save::gzipCompress("[1, 2]") << "g.tyw: $: expected a JSON object";
    QJsonObject other = o;
    other["format"] = "vassal";
    QTest::newRow("other format") << gz(other) << "$.format: expected \"westphalia-save\"";
    QJsonObject newer = o;
    newer["version"] = 7;
    QTest::newRow("newer version") << gz(newer) << "$.version: format version 7 is newer";
    QJsonObject older = o;
    older["version"] = 0;
    QTest::newRow("unknown older version") << gz(older) << "$.version: unknown format version 0";
    QJsonObject noActions = o;
    noActions.remove("actions");
    QTest::newRow("missing actions") << gz(noActions) << "$.actions: missing";
    QJsonObject badAction = o;
    QJsonArray acts = badAction["actions"].toArray();
    acts[3] = 42;
    badAction["actions"] = acts;
    QTest::newRow("action not a string") << gz(badAction) << "$.actions[3]: expected a string";
    QJsonObject badSeed = o;
    badSeed["seed"] = "-x";
    QTest::newRow("bad seed") << gz(badSeed) << "$.seed: '-x' is not a whole number";
    save::SaveGame edited = g;
    edited.fingerprint = QByteArray(64, 'a');
    QTest::newRow("data fingerprint")
        << save::serialize(edited) << "$.data: the game data differ from those the game was played with";
    save::SaveGame badOpt = g;
    badOpt.options << QStringLiteral("19.99=on");
    QTest::newRow("unknown option") << save::serialize(badOpt) << "g.tyw: $.options[";
    save::SaveGame badScen = g;
    badScen.scenario = QStringLiteral("armageddon");
    QTest::newRow("unknown scenario")
        << save::serialize(badScen) << "$.scenario: unknown scenario 'armageddon'";
}

void TestSave::brokenFiles() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expect);
    const QString error = loadBytes(bytes);
    QVERIFY2(error.contains(expect), qPrintable(QStringLiteral("got: ") + error));
    QVERIFY(error.startsWith(QStringLiteral("g.tyw: "))); // names the file
}

void TestSave::illegalActionNamesIndexTextAndReason() {
    auto game = randomGame(QStringLiteral("campaign"), 6, 80);
    save::SaveGame g = save::fromGame(*game);
    // Action 40 replaced by one of the right form that is not legal there (serialize() recomputes the
    // chain: the engine, not the hash, must catch it).
    const int n = 40;
    QString wrong;
    Game probe(data());
    QString error;
    QVERIFY(save::replay(g, QStringLiteral("g.tyw"), probe, &error, n));
    for (const QString& candidate : {QStringLiteral("peace"), QStringLiteral("end"), QStringLiteral("pass"),
                                     QStringLiteral("overrun"), QStringLiteral("assault")}) {
        bool legal = false;
        for (const Action& a : probe.legalActions())
            legal = legal || formatAction(probe.data(), probe.state(), a) == candidate;
        if (!legal) {
            wrong = candidate;
            break;
        }
    }
    QVERIFY(!wrong.isEmpty());
    g.actions[n] = wrong;
    error = loadBytes(save::serialize(g));
    QVERIFY2(error.startsWith(QStringLiteral("g.tyw: $.actions[40]: illegal action '%1'").arg(wrong)),
             qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("action 41 of 80")), qPrintable(error));
    const QString reason = error.section(QStringLiteral("): "), -1);
    QVERIFY2(reason.size() > 5, qPrintable(error)); // the engine's reason follows
    // A malformed action text: the parser's message.
    g.actions[n] = QStringLiteral("march to moscow");
    error = loadBytes(save::serialize(g));
    QVERIFY2(error.startsWith(QStringLiteral("g.tyw: $.actions[40]: illegal action 'march to moscow'")),
             qPrintable(error));
    // an action after the end of the game
    auto over = randomGame(QStringLiteral("early-war"), 3, 100000);
    save::SaveGame og = save::fromGame(*over);
    og.actions << QStringLiteral("pass");
    error = loadBytes(save::serialize(og));
    QVERIFY2(error.contains(QStringLiteral("$.actions[%1]: 'pass' comes after the end of the game")
                                .arg(og.actions.size() - 1)),
             qPrintable(error));
}

void TestSave::editedLogBreaksHashChain() {
    auto game = randomGame(QStringLiteral("campaign"), 7, 200);
    const save::SaveGame g = save::fromGame(*game);
    QJsonObject o = jsonOf(g);
    // a hand edit of action 100 without recomputing the chain
    QJsonArray acts = o["actions"].toArray();
    acts[100] = acts[100].toString() + QStringLiteral(" ");
    o["actions"] = acts;
    QString error = loadBytes(gz(o));
    QVERIFY2(error.contains(QStringLiteral("g.tyw: $.chain.checkpoints[1]: the hash chain does not match")),
             qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("between actions 64 and 127")), qPrintable(error));
    // an edit after the last checkpoint, and a removed action
    o = jsonOf(g);
    acts = o["actions"].toArray();
    acts.removeLast();
    o["actions"] = acts;
    error = loadBytes(gz(o));
    QVERIFY2(error.contains(QStringLiteral("$.chain.head: the hash chain does not match")),
             qPrintable(error));
}

void TestSave::atomicWriteKeepsOldFile() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("g.tyw"));
    auto game = randomGame(QStringLiteral("campaign"), 8, 30);
    QString error;
    QVERIFY(save::writeFile(path, save::fromGame(*game), &error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray before = f.readAll();
    f.close();
    // A failed write (its directory is a file) reports the path and leaves nothing behind.
    const QString bad = path + QStringLiteral("/inside.tyw");
    QVERIFY(!save::writeFile(bad, save::fromGame(*game), &error));
    QVERIFY2(error.startsWith(bad + QStringLiteral(": cannot write")), qPrintable(error));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before);
    f.close();
    // A failed load never writes the file it read.
    QFile w(path);
    QVERIFY(w.open(QIODevice::WriteOnly));
    w.write(before.left(before.size() - 9));
    w.close();
    QVERIFY(!save::load(data(), path, &error));
    QVERIFY(error.contains(QStringLiteral("truncated")));
    QCOMPARE(QFileInfo(path).size(), before.size() - 9);
}

void TestSave::stepReplayForwardAndBackward() {
    auto game = randomGame(QStringLiteral("campaign"), 9, 60);
    const save::SaveGame g = save::fromGame(*game);
    save::StepReplay sr;
    QString error;
    QVERIFY2(sr.open(data(), g, QStringLiteral("g.tyw"), &error, 40), qPrintable(error));
    QCOMPARE(sr.first(), 40);
    QCOMPARE(sr.size(), 21);
    QCOMPARE(sr.position(), 40);
    QVERIFY(!sr.backward()); // nothing before the first position held
    while (sr.forward()) {
    }
    QCOMPARE(sr.position(), 60);
    QVERIFY(sr.state() == game->state());
    QCOMPARE(sr.actionBefore(), g.actions[59]);
    for (int n : {55, 41, 50}) {
        QVERIFY(sr.seek(n));
        Game ref(data());
        QVERIFY(save::replay(g, QStringLiteral("g.tyw"), ref, &error, n));
        QVERIFY2(sr.state() == ref.state(), qPrintable(QString::number(n)));
        QCOMPARE(sr.actionBefore(), g.actions[n - 1]);
    }
    QVERIFY(sr.backward());
    QCOMPARE(sr.position(), 49);
}

void TestSave::cliVerifyAndReplay() {
    QTemporaryDir tmp;
    auto game = randomGame(QStringLiteral("campaign"), 10, 90);
    const QString good = tmp.filePath(QStringLiteral("good.tyw"));
    const QString bad = tmp.filePath(QStringLiteral("bad.tyw"));
    QString error;
    QVERIFY(save::writeFile(good, save::fromGame(*game), &error));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("hello");
    f.close();
    Run r = cli({"save", "verify", good});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.startsWith(QStringLiteral("OK ") + good + QStringLiteral(" (90 actions")),
             qPrintable(r.out));
    r = cli({"save", "verify", good, bad});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(QStringLiteral("FAIL ") + bad + QStringLiteral(": not a gzip file")),
             qPrintable(r.err));
    QVERIFY(r.out.contains(QStringLiteral("1 of 2 saves OK")));
    r = cli({"save", "replay", good, "--to", "50", "--state-json"});
    QCOMPARE(r.code, 0);
    Game ref(data());
    auto g = save::readFile(good, &error);
    QVERIFY(g && save::replay(*g, good, ref, &error, 50));
    const QJsonObject js = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(js, stateToJson(ref.engine(), ref.state()));
    r = cli({"save", "replay", good, "--to", "91"});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains(QStringLiteral("only 90 actions")));
    r = cli({"save", "verify"});
    QCOMPARE(r.code, 2);
}

// westphalia-cli fuzz --save-dir writes every game as a save that verifies and replays to its end.
void TestSave::fuzzSaveDir() {
    QTemporaryDir tmp;
    Run r = cli({"fuzz", "--games", "2", "--seed", "5", "--scenario", "early-war", "--jobs", "1",
                 "--save-dir", tmp.path()});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(QStringLiteral("saves written in ")), qPrintable(r.out));
    const QStringList files = QDir(tmp.path()).entryList({"*.tyw"});
    QCOMPARE(files, (QStringList{"early-war-5.tyw", "early-war-6.tyw"}));
    for (const QString& f : files) {
        QString error;
        auto game = save::load(data(), tmp.filePath(f), &error);
        QVERIFY2(game, qPrintable(error));
        QVERIFY(game->state().gameOver); // the fuzzer plays games to their end
    }
    r = cli({"save", "verify", tmp.filePath(files[0]), tmp.filePath(files[1])});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains(QStringLiteral("2 of 2 saves OK")));

    // ... and so does `tournament --save-dir` (issue 7: "and later tournament"), one save per game
    QTemporaryDir bots;
    r = cli({"tournament", "--bots", "priority,random", "--games", "2", "--scenario", "early-war", "--seed",
             "5", "--save-dir", bots.path()});
    QCOMPARE(r.code, 0);
    const QStringList saves = QDir(bots.path()).entryList({"*.tyw"});
    QCOMPARE(saves, (QStringList{"early-war-5-priority-random.tyw", "early-war-5-random-priority.tyw"}));
    for (const QString& f : saves) {
        QString error;
        auto game = save::load(data(), bots.filePath(f), &error);
        QVERIFY2(game, qPrintable(error));
        QVERIFY(game->state().gameOver);
    }
    // the same bot on both sides: the sides-swapped game gets its own files; `--handicap A` (issue 8) gives
    // bot A's side the half-aid handicap, written into each save's options
    QTemporaryDir same;
    r = cli({"tournament", "--bots", "random,random", "--games", "2", "--scenario", "early-war", "--seed",
             "5", "--handicap", "A", "--save-dir", same.path()});
    QCOMPARE(r.code, 0);
    const QStringList pair = QDir(same.path()).entryList({"*.tyw"});
    QCOMPARE(pair, (QStringList{"early-war-5-random-random-swapped.tyw", "early-war-5-random-random.tyw"}));
    QStringList handicaps;
    for (const QString& f : pair) {
        QString error;
        auto game = save::load(data(), same.filePath(f), &error);
        QVERIFY2(game, qPrintable(error));
        handicaps << rules::optionList(game->state().options).filter(QStringLiteral("handicap=")).join(',');
    }
    QCOMPARE(handicaps, (QStringList{"handicap=protestant:half-aid", "handicap=catholic:half-aid"}));
    r = cli({"tournament", "--bots", "random,random", "--games", "2", "--handicap", "C"});
    QCOMPARE(r.code, 2);
    // `--side SIDE`: bot A plays that side in every game, one game per seed
    QTemporaryDir oneSide;
    r = cli({"tournament", "--bots", "priority,random", "--games", "2", "--scenario", "early-war", "--seed",
             "5", "--side", "protestant", "--save-dir", oneSide.path()});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(QStringLiteral("seeds 5-6 (priority always the Protestant)")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("priority \\(A\\) +Catholic +0 "))),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("priority \\(A\\) +Protestant +2 "))),
             qPrintable(r.out));
    QCOMPARE(QDir(oneSide.path()).entryList({"*.tyw"}),
             (QStringList{"early-war-5-random-priority.tyw", "early-war-6-random-priority.tyw"}));
    r = cli({"tournament", "--bots", "random,random", "--games", "2", "--side", "both"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--side both: expected catholic or protestant")),
             qPrintable(r.err));
    // `--features FILE` (issue 8, the learned value's data): the header and a row per card round of each
    // finished game; a file in a directory that does not exist is refused before any game is played
    const QString features = same.filePath(QStringLiteral("features.txt"));
    r = cli({"tournament", "--bots", "priority,random", "--games", "2", "--scenario", "early-war", "--seed",
             "5", "--features", features});
    QCOMPARE(r.code, 0);
    QFile ff(features);
    QVERIFY(ff.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(ff.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(lines.size() > 20);
    QVERIFY(lines[0].startsWith(QStringLiteral("# turn last-turn side one vp ")));
    QVERIFY(r.out.contains(QStringLiteral("features of %1 card rounds written to").arg(lines.size() - 1)));
    for (qsizetype i = 1; i < lines.size(); ++i)
        QCOMPARE(lines[i].count(QLatin1Char('|')), 1);
    r = cli({"tournament", "--bots", "random,random", "--games", "2", "--features", "/no/such/dir/f.txt"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(
                 QStringLiteral("--features /no/such/dir/f.txt: the directory /no/such/dir does not exist")),
             qPrintable(r.err));
}

// A mutation loop over the loader: random byte flips, cuts and insertions in the gzip bytes, and random
// edits of the JSON text and of action texts (recompressed, so they reach the parser and the engine).
// Every input must give a clean success or a message naming the file; never a crash or a hang.
// WESTPHALIA_FUZZ_SECONDS (default 3) sets the duration.
void TestSave::fuzzLoader() {
    auto game = randomGame(QStringLiteral("campaign"), 12, 150);
    const save::SaveGame g = save::fromGame(*game);
    const QByteArray good = save::serialize(g);
    const QByteArray json = inflate(good);
    const double seconds = qEnvironmentVariableIsSet("WESTPHALIA_FUZZ_SECONDS")
                               ? qEnvironmentVariable("WESTPHALIA_FUZZ_SECONDS").toDouble()
                               : 3.0;
    QRandomGenerator rng(1234);
    QElapsedTimer t;
    t.start();
    int runs = 0, loaded = 0, rejected = 0, deep = 0;
    while (static_cast<double>(t.elapsed()) < seconds * 1000 || runs < 50) {
        QByteArray in;
        const int kind = static_cast<int>(rng.bounded(5));
        if (kind == 0) { // byte flips in the gzip stream
            in = good;
            for (int k = 0, n = 1 + static_cast<int>(rng.bounded(4)); k < n; ++k)
                in[rng.bounded(in.size())] = static_cast<char>(rng.bounded(256));
        } else if (kind == 1) { // cut
            in = good.left(rng.bounded(good.size()));
        } else if (kind == 2) { // JSON text edits
            QByteArray j = json;
            for (int k = 0, n = 1 + static_cast<int>(rng.bounded(3)); k < n; ++k) {
                const qsizetype at = rng.bounded(j.size());
                switch (rng.bounded(3)) {
                case 0:
                    j[at] = "{}[]\",:0123456789-etn \n"[rng.bounded(23)];
                    break;
                case 1:
                    j.remove(at, 1 + rng.bounded(8));
                    break;
                default:
                    j.insert(at, j.mid(rng.bounded(j.size()), 1 + rng.bounded(12)));
                }
            }
            in = save::gzipCompress(j);
        } else { // action-level edits with a valid chain: reach the engine
            save::SaveGame m = g;
            const qsizetype i = rng.bounded(m.actions.size());
            switch (rng.bounded(4)) {
            case 0:
                m.actions.removeAt(i);
                break;
            case 1:
                m.actions.swapItemsAt(i, rng.bounded(m.actions.size()));
                break;
            case 2:
                m.actions.insert(i, m.actions[rng.bounded(m.actions.size())]);
                break;
            default: {
                QStringList words = m.actions[i].split(QLatin1Char(' '));
                words[rng.bounded(words.size())] =
                    m.actions[rng.bounded(m.actions.size())].split(QLatin1Char(' ')).last();
                m.actions[i] = words.join(QLatin1Char(' '));
            }
            }
            in = save::serialize(m);
            ++deep;
        }
        const QString error = loadBytes(in, QStringLiteral("fz.tyw"));
        if (error.isEmpty())
            ++loaded;
        else {
            ++rejected;
            QVERIFY2(error.startsWith(QStringLiteral("fz.tyw: ")), qPrintable(error));
        }
        ++runs;
    }
    qInfo("loader fuzz: %d inputs in %.1f s (%d rejected with a message, %d loaded, %d reached the engine)",
          runs, static_cast<double>(t.elapsed()) / 1000, rejected, loaded, deep);
    QVERIFY(rejected > runs / 2);
}

namespace {

const QString kFixtures = QStringLiteral(WESTPHALIA_TEST_DIR "/fixtures/saves/");

bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// WESTPHALIA_WRITE_FIXTURES=1 test_save realFixtureFiles writes tests/fixtures/saves/ anew (see its README).
void writeFixtures() {
    auto game = randomGame(QStringLiteral("campaign"), 3, 40);
    const save::SaveGame g = save::fromGame(*game);
    const QByteArray good = save::serialize(g);
    QVERIFY(writeBytes(kFixtures + "campaign-40.tyw", good));
    QVERIFY(writeBytes(kFixtures + "truncated.tyw", good.left(good.size() / 2)));
    QJsonObject newer = jsonOf(g);
    newer["version"] = 9;
    QVERIFY(writeBytes(kFixtures + "newer-version.tyw", gz(newer)));
    save::SaveGame other = g;
    other.fingerprint = QByteArray(64, '0');
    QVERIFY(writeBytes(kFixtures + "wrong-fingerprint.tyw", save::serialize(other)));
    save::PbemSession host(data());
    QByteArray start;
    QString error;
    QVERIFY2(host.create(QStringLiteral("campaign"), {}, kCatholic, save::DiceMode::Sealed, &start, &error),
             qPrintable(error));
    QJsonObject st = QJsonDocument::fromJson(inflate(start)).object();
    st["version"] = 9;
    QVERIFY(writeBytes(kFixtures + "newer-protocol.pbem", gz(st)));
}

} // namespace

// Real files on disk (tests/fixtures/saves/, written by an earlier build): a valid campaign save, a
// truncated one, one of a newer format version, one made with other game data, and a PBEM start file of
// a newer protocol (read by test_pbem). Each loads, or is refused with the reason, here and by the CLI.
void TestSave::realFixtureFiles() {
    if (qEnvironmentVariableIsSet("WESTPHALIA_WRITE_FIXTURES"))
        writeFixtures();
    QString error;
    const QString valid = kFixtures + "campaign-40.tyw";
    auto g = save::readFile(valid, &error);
    QVERIFY2(g, qPrintable(error));
    QCOMPARE(g->scenario, QStringLiteral("campaign"));
    QCOMPARE(g->actions.size(), 40);
    QCOMPARE(g->format, 1);
    Game game(data());
    if (g->fingerprint == data()->fingerprint) {
        QVERIFY2(save::replay(*g, valid, game, &error), qPrintable(error));
    } else {
        // the shipped data changed since the fixture was written: the save says so, and its actions
        // still replay under these data (the rules keep old saves playable)
        QVERIFY(!save::replay(*g, valid, game, &error));
        QVERIFY2(error.contains(QStringLiteral("$.data: the game data differ")), qPrintable(error));
        qInfo("campaign-40.tyw was written with other data (%s): replayed with these", qPrintable(error));
        save::SaveGame same = *g;
        same.fingerprint = data()->fingerprint;
        QVERIFY2(save::replay(same, valid, game, &error), qPrintable(error));
    }
    QVERIFY(checkInvariants(game.engine(), game.state()).isEmpty());
    struct Bad {
        const char* file;
        const char* expect;
    };
    for (const Bad& b : {Bad{"truncated.tyw", "truncated.tyw: truncated"},
                         Bad{"newer-version.tyw", "newer-version.tyw: $.version: format version 9 is newer"},
                         Bad{"wrong-fingerprint.tyw",
                             "wrong-fingerprint.tyw: $.data: the game data differ from those the game was "
                             "played with (fingerprint 0000000000000000"}}) {
        const QString path = kFixtures + QLatin1String(b.file);
        QVERIFY2(QFile::exists(path), qPrintable(path));
        QVERIFY(!save::load(data(), path, &error));
        QVERIFY2(error.contains(QLatin1String(b.expect)), qPrintable(error));
        const Run r = cli({"save", "verify", path});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QLatin1String(b.expect)), qPrintable(r.err));
    }
    const Run ok = cli({"save", "verify", valid});
    if (g->fingerprint == data()->fingerprint)
        QVERIFY2(ok.code == 0 && ok.out.contains(QStringLiteral("(40 actions")), qPrintable(ok.out + ok.err));
    else
        QVERIFY2(ok.code == 1 && ok.err.contains(QStringLiteral("$.data")), qPrintable(ok.err));
}

QTEST_GUILESS_MAIN(TestSave)
#include "test_save.moc"
