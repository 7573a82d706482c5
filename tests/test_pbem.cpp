// Play by e-mail (issue 7, model/save/pbem.h, docs/pbem.md): a game of three full turns between two
// separate copies (each directory holds only its own secrets), one test per kind of tampering, the hidden
// hands, the verification of the whole game, and the CLI.
#include "battle/linked.h"
#include "data/loader.h"
#include "gamecontroller.h"
#include "ordersdialog.h"
#include "rules/invariants.h"
#include "save/pbem.h"
#include "save/savefile.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
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

save::PbemSession open(const QString& dir) {
    save::PbemSession s(data());
    QString error;
    if (!s.loadFrom(dir, &error))
        qFatal("%s", qPrintable(error));
    return s;
}

void store(const save::PbemSession& s, const QString& dir) {
    QString error;
    if (!s.saveTo(dir, &error))
        qFatal("%s", qPrintable(error));
}

QJsonObject inflate(const QByteArray& gz) {
    QByteArray raw;
    QString error;
    if (!save::gzipDecompress(gz, &raw, &error))
        qFatal("%s", qPrintable(error));
    return QJsonDocument::fromJson(raw).object();
}

QByteArray deflate(const QJsonObject& o) {
    return save::gzipCompress(QJsonDocument(o).toJson());
}

// The protocol's hash (pbem.cpp): SHA-256 over length-prefixed parts, hex. A cheater can recompute it.
QByteArray sha(std::initializer_list<QByteArray> parts) {
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (const QByteArray& p : parts) {
        h.addData(QByteArray::number(p.size()));
        h.addData(QByteArrayView(":"));
        h.addData(p);
    }
    return h.result().toHex();
}

// What a cheater does after editing the actions: recompute the file's log hash so it looks intact.
void relog(QJsonObject& o, const QStringList& before) {
    QByteArray head = sha({"log", o["game"].toString().toLatin1()});
    for (const QString& t : before)
        head = sha({head, t.toUtf8()});
    for (const QJsonValue& v : o["actions"].toArray())
        head = sha({head, v.toString().toUtf8()});
    o["logHead"] = QString::fromLatin1(head);
}

struct Match {
    // the secrets from a fixed seed (docs/pbem.md "Tests"): the same games every run (with the operating
    // system's, a long random game could take test_pbem past its CTest timeout)
    save::TestSecretsScope secrets{9001};
    QTemporaryDir tmp;
    QString a, b; // A: Catholic (host), B: Protestant
    int files = 0;
    QString target;          // the copy the last exported file goes to
    int actionsSent = 0;     // actions in the files exported by play()
    int ordered = 0;         // of them, taken for the opponent by his standing orders
    int orderedInside = 0;   // ordered actions that are not the last of their file: hand-overs saved
    QList<int> lastOrdered;  // positions of the ordered actions in the last file exported
    bool lastSealed = false; // the last file exported ends with a sealed roll
    Match() : a(tmp.filePath("catholic")), b(tmp.filePath("protestant")) {}

    void start(save::DiceMode dice, const QString& scenario = QStringLiteral("campaign")) {
        QString error;
        save::PbemSession host(data());
        QByteArray startFile, joinFile;
        QVERIFY2(host.create(scenario, {}, kCatholic, dice, &startFile, &error), qPrintable(error));
        store(host, a);
        save::PbemSession guest(data());
        QVERIFY2(guest.join(startFile, "start.pbem", &joinFile, &error), qPrintable(error));
        store(guest, b);
        save::PbemSession h = open(a);
        QVERIFY2(h.importFile(joinFile, "join.pbem", &error), qPrintable(error));
        store(h, a);
    }
    // The side whose file is next.
    QString sender() const { return open(a).myBall() ? a : b; }
    QString receiver() const { return sender() == a ? b : a; }
    // The sender plays random legal actions until the file must go, and exports it (not yet imported).
    QByteArray play(uint64_t seed, bool reveal = false) {
        const QString dir = sender();
        target = dir == a ? b : a;
        save::PbemSession s = open(dir);
        Rng pick(seed * 1000003 + static_cast<uint64_t>(s.fileCount()));
        while (s.canPlay()) {
            const auto legal = s.legalActions();
            const ApplyResult r =
                s.play(legal[chooseRandomAction(*data(), s.state(), legal, RandomPolicy::Aggressive, pick)]);
            if (!r.ok)
                qFatal("a legal action was refused: %s", qPrintable(r.error));
        }
        const QList<bool> flags = s.pendingOrdered();
        lastOrdered.clear();
        for (qsizetype k = 0; k < flags.size(); ++k)
            if (flags[k]) {
                lastOrdered << static_cast<int>(k);
                ++ordered;
                orderedInside += k + 1 < flags.size();
            }
        actionsSent += static_cast<int>(flags.size());
        lastSealed = s.lastActionSealed();
        QByteArray bytes;
        QString name, error;
        if (!s.exportFile(&bytes, &name, reveal, &error))
            qFatal("export: %s", qPrintable(error));
        store(s, dir);
        return bytes;
    }
    QString deliver(const QByteArray& bytes, const QString& name = QStringLiteral("turn.pbem")) {
        const QString dir = target;
        save::PbemSession s = open(dir);
        QString error;
        if (!s.importFile(bytes, name, &error))
            return error;
        store(s, dir);
        ++files;
        return {};
    }
    // Gives a side standing orders (sent with its next file).
    void orders(const QString& dir, const QStringList& sets) {
        save::PbemSession s = open(dir);
        save::StandingOrders o = s.myOrders();
        QString error;
        for (const QString& kv : sets)
            QVERIFY2(o.set(*data(), kv, &error), qPrintable(error));
        QVERIFY2(s.setMyOrders(o, &error), qPrintable(error));
        store(s, dir);
    }
    // Exchanges files until the game (in the receiver's view) reaches `turn`.
    void playUntilTurn(int turn, uint64_t seed) {
        for (int k = 0; k < 2000; ++k) {
            const save::PbemSession s = open(receiver());
            if (s.started() && (s.state().turn >= turn || s.state().gameOver))
                return;
            const QString problem = deliver(play(seed + static_cast<uint64_t>(k)));
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        QFAIL("the game did not get there");
    }
};

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestPbem : public QObject {
    Q_OBJECT
  private slots:
    void threeFullTurnsBetweenTwoCopies();
    void wholeGameToItsEnd();
    void tampering_data();
    void tampering();
    void replayedOldFileAndMissingFile();
    void forkedHistory();
    void forgedDieInOpenGame();
    void hiddenHands();
    void sealedRollIsNotKnownToTheRoller();
    void statusTellsNoDiceFromSealed();
    void ordersChooseOnlyLegalActions();
    void standingOrdersSaveHandOvers();
    void tamperedOrderInTransit();
    void orderNotFollowed();
    void protocolOneGame();
    void battleDataAtJoin();
    void ordersDialog();
    void cli();
    void testSecretsSeam();
};

// docs/pbem.md "Tests": setTestSecretsSeed makes the secrets (game id, deck secret, dice chain, nonce) a
// function of the seed, so a test of two copies plays the same game every run: the same seed gives the
// same start file; 0 gives back the operating system's generator, whose start files all differ.
void TestPbem::testSecretsSeam() {
    auto startFile = [](quint64 seed) {
        if (seed)
            save::setTestSecretsSeed(seed);
        save::PbemSession host(data());
        QByteArray bytes;
        QString error;
        if (!host.create(QStringLiteral("campaign"), {}, kCatholic, save::DiceMode::Sealed, &bytes, &error))
            qFatal("%s", qPrintable(error));
        return std::pair{bytes, host.gameId()};
    };
    const auto a = startFile(77), b = startFile(77), c = startFile(78);
    QCOMPARE(a.first, b.first);
    QCOMPARE(a.second, b.second);
    QVERIFY(a.second != c.second);
    save::setTestSecretsSeed(0);
    const auto d = startFile(0), e = startFile(0);
    QVERIFY(d.second != e.second && d.second != a.second && e.second != a.second);
}

// Issue 7, "a full PBEM game can be played between two installations": the Early War scenario from its
// start file to the game's end (5.2x victory or turn 5 over), sealed dice, each copy reloaded from its own
// directory for every file; then both reveal and each verifies the whole game.
void TestPbem::wholeGameToItsEnd() {
    Match m;
    m.start(save::DiceMode::Sealed, QStringLiteral("early-war"));
    m.playUntilTurn(99, 500); // i.e. until the game is over
    save::PbemSession ca = open(m.a), pr = open(m.b);
    QVERIFY(ca.state().gameOver || pr.state().gameOver);
    QCOMPARE(m.deliver(m.play(9, true)), QString());
    QCOMPARE(m.deliver(m.play(10, true)), QString());
    ca = open(m.a);
    pr = open(m.b);
    QVERIFY(ca.state().gameOver && pr.state().gameOver);
    QVERIFY(ca.opponentRevealed() && pr.opponentRevealed());
    QString report;
    QVERIFY2(ca.verifyGame(&report), qPrintable(report));
    QVERIFY(report.contains(QStringLiteral("whole game verified")));
    QVERIFY2(pr.verifyGame(&report), qPrintable(report));
    QCOMPARE(ca.state().result, pr.state().result);
}

// Two copies, each reloaded from its own directory for every file, play three full turns choosing among
// the engine's legal actions; then both reveal and each verifies the whole game.
void TestPbem::threeFullTurnsBetweenTwoCopies() {
    Match m;
    m.start(save::DiceMode::Sealed);
    m.playUntilTurn(4, 100);
    save::PbemSession ca = open(m.a), pr = open(m.b);
    QVERIFY(ca.state().turn >= 4 || ca.state().gameOver);
    QVERIFY2(ca.allActions().size() > 100, qPrintable(QString::number(ca.allActions().size())));
    // each copy holds only its own secrets
    const QJsonObject sa = QJsonDocument::fromJson(readAll(m.a + "/session.json")).object();
    const QJsonObject sb = QJsonDocument::fromJson(readAll(m.b + "/session.json")).object();
    for (const char* k : {"deckSecret", "chainSeed"}) {
        QVERIFY(!readAll(m.b + "/session.json").contains(sa[k].toString().toLatin1()));
        QVERIFY(!readAll(m.a + "/session.json").contains(sb[k].toString().toLatin1()));
    }
    // the two views agree on everything public
    if (ca.myBall() == pr.myBall())
        QFAIL("both copies think it is their file");
    // end by agreement: both reveal, then each verifies the whole game with the true hands
    QCOMPARE(m.deliver(m.play(7, true)), QString());
    QCOMPARE(m.deliver(m.play(8, true)), QString());
    ca = open(m.a);
    pr = open(m.b);
    QVERIFY(ca.opponentRevealed() && pr.opponentRevealed());
    QString report;
    QVERIFY2(ca.verifyGame(&report), qPrintable(report));
    QVERIFY(report.contains(QStringLiteral("whole game verified")));
    QVERIFY2(pr.verifyGame(&report), qPrintable(report));
    // the copies agree (one may not have resolved the last roll, which needs the other's next value)
    const qsizetype n = std::min(ca.allActions().size(), pr.allActions().size());
    QVERIFY(n + 1 >= std::max(ca.allActions().size(), pr.allActions().size()));
    QCOMPARE(ca.allActions().mid(0, n), pr.allActions().mid(0, n));
    if (ca.allActions().size() == pr.allActions().size())
        QCOMPARE(save::publicDigest(ca.state()), save::publicDigest(pr.state()));
    // the step-through of the last actions, forward and backward, ends where the view is
    std::vector<GameState> steps;
    QStringList texts;
    QString why;
    const int from = static_cast<int>(ca.allActions().size()) - 10;
    QVERIFY2(ca.stepStates(from, &steps, &texts, &why), qPrintable(why));
    QCOMPARE(static_cast<qsizetype>(steps.size()), texts.size() + 1);
    QCOMPARE(texts, ca.allActions().mid(from));
    QCOMPARE(save::publicDigest(steps.back()), save::publicDigest(ca.state()));
    qInfo("%d files, %d actions, turn %d", m.files + 3, static_cast<int>(ca.allActions().size()),
          ca.state().turn);
}

void TestPbem::tampering_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("expect");
    QTest::newRow("edited action, log hash left") << "edit"
                                                  << "the log hash does not match its actions";
    QTest::newRow("edited action, log hash recomputed") << "edit-relog"
                                                        << "";
    QTest::newRow("omitted action") << "omit"
                                    << "";
    QTest::newRow("reordered actions") << "reorder"
                                       << "";
    QTest::newRow("injected action") << "inject"
                                     << "";
    QTest::newRow("forged dice value") << "chain"
                                       << "forged randomness";
    QTest::newRow("forged public state") << "digest"
                                         << "the sender's game differs from this replay";
    QTest::newRow("another game's file") << "game"
                                         << "belongs to another game";
    QTest::newRow("hidden card revealed") << "reveal"
                                          << "";
}

// One file from the Catholic copy, changed the way a cheater would, must be refused with the reason, and
// the receiving copy must stay as it was.
void TestPbem::tampering() {
    QFETCH(QString, kind);
    QFETCH(QString, expect);
    Match m;
    m.start(save::DiceMode::Sealed);
    // a file with at least three actions, one of them naming a card
    QByteArray file;
    QJsonObject o;
    for (int k = 0; k < 400; ++k) {
        file = m.play(static_cast<uint64_t>(k) + 1);
        o = inflate(file);
        const QJsonArray acts = o["actions"].toArray();
        bool card = false;
        for (const QJsonValue& v : acts)
            card = card || v.toString().startsWith(QStringLiteral("play "));
        if (acts.size() >= 3 && card)
            break;
        QCOMPARE(m.deliver(file), QString());
    }
    // the actions before the file, as the cheat who recomputes the log hash has them: the sender's copy
    // (the receiver may still wait for the result of its own last, sealed, action)
    const QStringList before = open(m.target == m.a ? m.b : m.a).allActions().mid(0, o["fromAction"].toInt());
    QJsonArray acts = o["actions"].toArray();
    QVERIFY(acts.size() >= 3);
    if (kind == "edit" || kind == "edit-relog") {
        // the first card play changed to another card (the player's true hand is unknown to the cheat)
        for (qsizetype i = 0; i < acts.size(); ++i) {
            QString t = acts[i].toString();
            if (t.startsWith(QStringLiteral("play "))) {
                QStringList w = t.split(' ');
                w[1] = w[1] == QLatin1String("C1") ? QStringLiteral("C2") : QStringLiteral("C1");
                acts[i] = w.join(' ');
                break;
            }
        }
        o["actions"] = acts;
        if (kind == "edit-relog")
            relog(o, before);
    } else if (kind == "omit") {
        for (qsizetype i = 0; i < acts.size(); ++i)
            if (acts[i].toString().startsWith(QStringLiteral("play "))) {
                acts.removeAt(i); // the card play that started an activation
                break;
            }
        o["actions"] = acts;
        relog(o, before);
    } else if (kind == "reorder") {
        const QJsonValue x = acts[0];
        acts[0] = acts[1];
        acts[1] = x;
        o["actions"] = acts;
        relog(o, before);
    } else if (kind == "inject") {
        acts.insert(1, acts[0]);
        o["actions"] = acts;
        relog(o, before);
    } else if (kind == "chain") {
        o["chain"] = QString::fromLatin1(sha({"my own dice"}));
    } else if (kind == "digest") {
        o["digest"] = QString::fromLatin1(sha({"another state"}));
    } else if (kind == "game") {
        o["game"] = QStringLiteral("0123456789abcdef");
    } else if (kind == "reveal") {
        // the file claims a different card left the hand (hiding the one really played)
        QJsonObject rv = o["reveals"].toObject();
        for (auto it = rv.begin(); it != rv.end(); ++it)
            if (!it.value().toString().isEmpty()) {
                it.value() = it.value().toString() == QLatin1String("C1") ? QStringLiteral("C2")
                                                                          : QStringLiteral("C1");
                break;
            }
        o["reveals"] = rv;
    }
    const int filesBefore = open(m.target).fileCount();
    const QString problem = m.deliver(deflate(o), QStringLiteral("evil.pbem"));
    QVERIFY2(!problem.isEmpty(), "the tampered file was accepted");
    QVERIFY2(problem.startsWith(QStringLiteral("evil.pbem: ")), qPrintable(problem));
    if (!expect.isEmpty())
        QVERIFY2(problem.contains(expect), qPrintable(problem));
    else // caught by the replay (the log hash was recomputed): the words say what and where
        QVERIFY2(problem.contains(QRegularExpression("not legal here|injected|cannot be read|differs from "
                                                     "this replay|left the (Catholic|Protestant) hand|"
                                                     "omitted")),
                 qPrintable(problem));
    qInfo("%s", qPrintable(problem));
    QCOMPARE(open(m.target).fileCount(), filesBefore); // nothing imported
    QCOMPARE(m.deliver(file), QString());              // the true file still goes in
}

void TestPbem::replayedOldFileAndMissingFile() {
    Match m;
    m.start(save::DiceMode::Sealed);
    const QByteArray f3 = m.play(1);
    QCOMPARE(m.deliver(f3), QString());
    const QByteArray f4 = m.play(2);
    QCOMPARE(m.deliver(f4), QString());
    const QByteArray f5 = m.play(3);
    QCOMPARE(m.deliver(f5), QString());
    // the Protestant copy gets file 3 again
    QString problem = m.deliver(f3, QStringLiteral("old.pbem"));
    QVERIFY2(problem.contains(QStringLiteral("a replayed old file: file 3 was already imported")),
             qPrintable(problem));
    // a file skipped: file 7 before file 6
    const QByteArray f6 = m.play(4);
    {
        save::PbemSession r = open(m.target);
        QString error;
        // write file 7 as the receiver would, then show file 7's import without 6 at the other side
        QVERIFY(r.importFile(f6, "f6.pbem", &error));
        save::PbemSession rr = r;
        while (rr.canPlay()) {
            const auto legal = rr.legalActions();
            rr.play(legal.front());
        }
        QByteArray f7;
        QString name;
        QVERIFY2(rr.exportFile(&f7, &name, false, &error), qPrintable(error));
        // the sender of file 6 now receives file 7 before... it is the sender's own turn: the missing
        // case is a receiver that never got file 6: the Protestant copy (which has 5) gets file 7
        save::PbemSession lagging = open(m.target); // as it was before file 6 came
        QVERIFY(!lagging.importFile(f7, "f7.pbem", &error));
        QVERIFY2(error.contains(QStringLiteral("a file is missing: this is file 7 but the next one is 6")),
                 qPrintable(error));
    }
}

// The sender's copy goes back (its directory restored from a copy), plays differently and sends another
// version of the same file: the receiver, who has the first version, says so.
void TestPbem::forkedHistory() {
    Match m;
    m.start(save::DiceMode::Sealed);
    for (int k = 0; k < 4; ++k)
        QCOMPARE(m.deliver(m.play(static_cast<uint64_t>(k) + 11)), QString());
    // The secrets (and so the deal) are fresh for every run: a position where the sender has only one way
    // to play is possible. Then deliver a file and try the next position.
    QByteArray first;
    QByteArray second;
    for (int attempt = 0; attempt < 20 && second.isEmpty(); ++attempt) {
        const QString sender = m.sender();
        const QByteArray saved = readAll(sender + "/session.json");
        first.clear();
        for (uint64_t seed = 50; seed < 90; ++seed) {
            QFile f(sender + "/session.json");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(saved);
            f.close();
            const QByteArray x = m.play(seed);
            if (first.isEmpty())
                first = x;
            else if (inflate(x)["actions"] != inflate(first)["actions"]) {
                second = x;
                break;
            }
        }
        if (second.isEmpty()) {
            QFile f(sender + "/session.json");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(saved);
            f.close();
            QCOMPARE(m.deliver(m.play(static_cast<uint64_t>(attempt) + 100)), QString());
        }
    }
    QVERIFY(!second.isEmpty());
    QCOMPARE(m.deliver(first), QString());
    // the receiver answers; the second version of the earlier file then arrives
    QString problem = m.deliver(second, QStringLiteral("fork.pbem"));
    QVERIFY2(problem.contains(QStringLiteral("forked history")), qPrintable(problem));
    QVERIFY2(problem.contains(QStringLiteral("another version of file")), qPrintable(problem));
    // and a file that answers a version the receiver never had
    const QByteArray reply = m.play(99);
    QJsonObject o = inflate(reply);
    o["prev"] = QString::fromLatin1(sha({"a file I never saw"}));
    problem = m.deliver(deflate(o), QStringLiteral("fork2.pbem"));
    QVERIFY2(problem.contains(QStringLiteral("forked history: file")), qPrintable(problem));
    QVERIFY2(problem.contains(QStringLiteral("does not continue file")), qPrintable(problem));
}

// Open dice: rolls inside a file are listed with the dice the sender saw; a changed die is named.
void TestPbem::forgedDieInOpenGame() {
    Match m;
    m.start(save::DiceMode::Open);
    for (int k = 0; k < 600; ++k) {
        const QByteArray f = m.play(static_cast<uint64_t>(k) + 200);
        QJsonObject o = inflate(f);
        QJsonObject rolls = o["rolls"].toObject();
        if (rolls.isEmpty()) {
            QCOMPARE(m.deliver(f), QString());
            continue;
        }
        const QString at = rolls.keys().first();
        QString dice = rolls[at].toString();
        dice[0] = dice[0] == QLatin1Char('9') ? QLatin1Char('0') : QLatin1Char('9');
        rolls[at] = dice;
        o["rolls"] = rolls;
        const QString problem = m.deliver(deflate(o), QStringLiteral("dice.pbem"));
        QVERIFY2(problem.contains(QStringLiteral("forged die: at action %1").arg(at)), qPrintable(problem));
        QCOMPARE(m.deliver(f), QString());
        return;
    }
    QFAIL("no file with dice rolled inside it");
}

// Nothing the Protestant copy receives determines the Catholic hand or draw pile: the Protestant copy
// accepts every file with a stand-in arrangement of the Catholic cards that is not the true one (so two
// different arrangements fit the same files), no file carries the secret, and after the reveal the
// true arrangement verifies as well.
void TestPbem::hiddenHands() {
    Match m;
    m.start(save::DiceMode::Sealed);
    for (int k = 0; k < 6; ++k) // a few files into turn 1
        QCOMPARE(m.deliver(m.play(static_cast<uint64_t>(k) + 300)), QString());
    // a moment when both copies have resolved the same actions
    for (int k = 0; k < 40 && open(m.a).allActions().size() != open(m.b).allActions().size(); ++k)
        QCOMPARE(m.deliver(m.play(static_cast<uint64_t>(k) + 400)), QString());
    const save::PbemSession ca = open(m.a), pr = open(m.b);
    QCOMPARE(ca.allActions(), pr.allActions());
    QCOMPARE(save::publicDigest(ca.state()), save::publicDigest(pr.state()));
    QVERIFY(ca.state().hand[kCatholic].size() >= 2);
    QCOMPARE(ca.state().hand[kCatholic].size(), pr.state().hand[kCatholic].size()); // sizes are public
    auto sorted = [](std::vector<int16_t> v) {
        std::sort(v.begin(), v.end());
        return v;
    };
    // Where a side still has cards in its draw pile, the other copy's arrangement of its unknown cards
    // is not the true one (when the pile is empty the hand is every card not played: public by the rules).
    int compared = 0;
    for (int side : {kCatholic, kProtestant}) {
        const GameState& truth = (side == kCatholic ? ca : pr).state();
        const GameState& standIn = (side == kCatholic ? pr : ca).state();
        QCOMPARE(standIn.drawPile[side].size(), truth.drawPile[side].size());
        if (truth.drawPile[side].size() < 3)
            continue;
        ++compared;
        QVERIFY(sorted(standIn.hand[side]) != sorted(truth.hand[side]) ||
                standIn.drawPile[side] != truth.drawPile[side]);
        QVERIFY(standIn.drawPile[side] != truth.drawPile[side]); // future draws unknown
    }
    QVERIFY(compared > 0);
    // the Catholic secret appears in no file and not in the Protestant directory
    const QByteArray secret =
        QJsonDocument::fromJson(readAll(m.a + "/session.json")).object()["deckSecret"].toString().toLatin1();
    QCOMPARE(secret.size(), 64);
    QVERIFY(!readAll(m.b + "/session.json").contains(secret));
    for (const QJsonObject& f : pr.files())
        QVERIFY(!QJsonDocument(f).toJson().contains(secret));
}

// In a sealed game an action that rolls ends the file unresolved in the roller's copy; the receiver's
// copy resolves it with its own next dice value, which the roller could not know.
void TestPbem::sealedRollIsNotKnownToTheRoller() {
    Match m;
    m.start(save::DiceMode::Sealed);
    for (int k = 0; k < 300; ++k) {
        const QString dir = m.sender();
        m.target = dir == m.a ? m.b : m.a;
        save::PbemSession s = open(dir);
        Rng pick(static_cast<uint64_t>(k) * 31 + 5);
        bool sealed = false;
        while (s.canPlay() && !sealed) {
            const auto legal = s.legalActions();
            const GameState before = s.state();
            QVERIFY(
                s.play(legal[chooseRandomAction(*data(), s.state(), legal, RandomPolicy::Aggressive, pick)],
                       &sealed)
                    .ok);
            if (sealed)
                QVERIFY(s.state() == before); // the roller's copy does not know the outcome
        }
        QByteArray bytes;
        QString name, error;
        QVERIFY(s.exportFile(&bytes, &name, false, &error));
        store(s, dir);
        if (sealed) {
            const int n = static_cast<int>(s.allActions().size());
            QCOMPARE(m.deliver(bytes), QString());
            const save::PbemSession r = open(m.target);
            QVERIFY(r.allActions().size() > n);                    // resolved by the receiver
            QVERIFY(inflate(bytes)["rolls"].toObject().isEmpty()); // the file claims no dice
            return;
        }
        QCOMPARE(m.deliver(bytes), QString());
    }
    QFAIL("no sealed roll");
}

void TestPbem::cli() {
    QTemporaryDir tmp;
    auto run = [&](const QStringList& args) {
        QProcess p;
        p.start(QStringLiteral(WESTPHALIA_CLI),
                QStringList{"pbem"} + args + QStringList{"--data", WESTPHALIA_SOURCE_DIR});
        p.waitForFinished(120000);
        return std::make_tuple(p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                               QString::fromUtf8(p.readAllStandardError()));
    };
    const QString a = tmp.filePath("a"), b = tmp.filePath("b");
    auto [c1, o1, e1] = run({"new", "--dir", a, "--side", "catholic", "--scenario", "campaign", "--out",
                             tmp.filePath("s1.pbem")});
    QCOMPARE(c1, 0);
    auto [c2, o2, e2] = run({"join", "--dir", b, tmp.filePath("s1.pbem"), "--out", tmp.filePath("s2.pbem")});
    QCOMPARE(c2, 0);
    QVERIFY(o2.contains(QStringLiteral("you play Protestant")));
    auto [c3, o3, e3] = run({"import-turn", "--dir", a, tmp.filePath("s2.pbem")});
    QCOMPARE(c3, 0);
    QVERIFY2(o3.contains(QStringLiteral("send your file now")), qPrintable(o3));
    auto [c4, o4, e4] = run({"export-turn", "--dir", a, "--out", tmp.filePath("s3.pbem")});
    QCOMPARE(c4, 0);
    auto [c5, o5, e5] = run({"import-turn", "--dir", b, tmp.filePath("s3.pbem")});
    QCOMPARE(c5, 0);
    QVERIFY2(o5.contains(QStringLiteral("your decision")), qPrintable(o5));
    auto [c6, o6, e6] = run({"status", "--dir", b, "--legal"});
    QCOMPARE(c6, 0);
    const QStringList lines = o6.split('\n', Qt::SkipEmptyParts);
    QVERIFY(lines.size() > 4);
    auto [c7, o7, e7] = run({"play", "--dir", b, lines.last()});
    QCOMPARE(c7, 0);
    auto [c8, o8, e8] = run({"play", "--dir", b, "--random", "3"});
    QCOMPARE(c8, 0);
    auto [c9, o9, e9] = run({"export-turn", "--dir", b, "--out", tmp.filePath("s4.pbem")});
    QCOMPARE(c9, 0);
    auto [c10, o10, e10] = run({"import-turn", "--dir", a, tmp.filePath("s4.pbem")});
    QCOMPARE(c10, 0);
    QVERIFY2(o10.contains(QStringLiteral("what happened")), qPrintable(o10));
    QVERIFY(o10.contains(lines.last()));
    // the same file again: refused, exit code 1, in words
    auto [c11, o11, e11] = run({"import-turn", "--dir", a, tmp.filePath("s4.pbem")});
    QCOMPARE(c11, 1);
    QVERIFY2(e11.contains(QStringLiteral("REJECTED")) && e11.contains(QStringLiteral("a replayed old file")),
             qPrintable(e11));
    auto [c12, o12, e12] = run({"verify", "--dir", a});
    QCOMPARE(c12, 1); // not yet: the secrets are not revealed
    QVERIFY(e12.contains(QStringLiteral("cannot be verified yet")));
    auto [c13, o13, e13] = run({"status", "--dir", a, "--bogus"});
    QCOMPARE(c13, 2);
    // standing orders: set, shown, sent with the next file, known to the opponent's copy
    auto [c14, o14, e14] =
        run({"orders", "--dir", a, "--set", "losses=cheapest", "--set", "retreat=inside,any"});
    QCOMPARE(c14, 0);
    QVERIFY2(o14.contains(QStringLiteral("your standing orders (sent with your next file)")) &&
                 o14.contains(QStringLiteral("losses=cheapest")) &&
                 o14.contains(QStringLiteral("retreat=inside,any")),
             qPrintable(o14));
    auto [c15, o15, e15] = run({"orders", "--dir", a, "--set", "losses=dearest"});
    QCOMPARE(c15, 1);
    QVERIFY2(e15.contains(QStringLiteral("losses=dearest: expected ask|cheapest")), qPrintable(e15));
    auto [c16, o16, e16] = run({"orders", "--dir", a, "--set", "nonsense"});
    QCOMPARE(c16, 1);
    QVERIFY2(e16.contains(QStringLiteral("expected key=value")), qPrintable(e16));
    auto [c17, o17, e17] = run({"status", "--dir", a, "--set", "losses=cheapest"});
    QCOMPARE(c17, 2);
    auto [c18, o18, e18] = run({"play", "--dir", a, "--random", "5"});
    QCOMPARE(c18, 0);
    auto [c19, o19, e19] = run({"export-turn", "--dir", a, "--out", tmp.filePath("s5.pbem")});
    QCOMPARE(c19, 0);
    auto [c20, o20, e20] = run({"import-turn", "--dir", b, tmp.filePath("s5.pbem")});
    QCOMPARE(c20, 0);
    auto [c21, o21, e21] = run({"orders", "--dir", b});
    QCOMPARE(c21, 0);
    QVERIFY2(o21.contains(
                 QStringLiteral("the opponent's standing orders (applied by this copy in your next file): "
                                "losses=cheapest retreat=inside,any")),
             qPrintable(o21));
}

// After a hand-over without dice the status says the decision passes; after a sealed roll it says the
// dice wait for the opponent's randomness (docs/pbem.md).
void TestPbem::statusTellsNoDiceFromSealed() {
    Match m;
    m.start(save::DiceMode::Sealed);
    bool sawSealed = false, sawPlain = false;
    for (int k = 0; k < 300 && !(sawSealed && sawPlain); ++k) {
        const QString dir = m.sender();
        m.target = dir == m.a ? m.b : m.a;
        save::PbemSession s = open(dir);
        Rng pick(static_cast<uint64_t>(k) * 17 + 3);
        bool sealed = false;
        while (s.canPlay()) {
            const auto legal = s.legalActions();
            QVERIFY(
                s.play(legal[chooseRandomAction(*data(), s.state(), legal, RandomPolicy::Aggressive, pick)],
                       &sealed)
                    .ok);
        }
        if (!s.pendingActions().isEmpty() && !s.state().gameOver) {
            const QString st = s.status();
            QVERIFY2(st.contains(QStringLiteral("send your file now")), qPrintable(st));
            if (s.lastActionSealed()) {
                sawSealed = true;
                QVERIFY2(st.contains(QStringLiteral("rolls dice")), qPrintable(st));
            } else {
                sawPlain = true;
                QVERIFY2(!st.contains(QStringLiteral("rolls dice")), qPrintable(st));
                QVERIFY2(st.contains(QStringLiteral("the decision passes to the opponent")), qPrintable(st));
            }
        }
        QByteArray bytes;
        QString name, error;
        QVERIFY2(s.exportFile(&bytes, &name, false, &error), qPrintable(error));
        store(s, dir);
        QCOMPARE(m.deliver(bytes), QString());
    }
    QVERIFY(sawSealed);
    QVERIFY(sawPlain);
}

const QStringList kAllOrders{"react=out",          "cards=none",    "losses=cheapest",
                             "retreat=inside,any", "peace=decline", "forced=auto"};

// Orders choose among the engine's legal actions only, whatever the state: random hotseat games, every
// decision asked of both sides' full orders.
void TestPbem::ordersChooseOnlyLegalActions() {
    save::StandingOrders orders;
    QString error;
    for (const QString& kv : kAllOrders)
        QVERIFY2(orders.set(*data(), kv, &error), qPrintable(error));
    Engine engine(data());
    QMap<QString, int> used;
    int asked = 0;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
        GameState s;
        QVERIFY2(engine.newGame(s, QStringLiteral("campaign"), GameOptions{}, seed, &error),
                 qPrintable(error));
        Rng pick(seed);
        for (int n = 0; n < 1500 && !s.gameOver; ++n) {
            const auto legal = engine.legalActions(s);
            QVERIFY(!legal.empty());
            for (int side : {kCatholic, kProtestant}) {
                QString rule;
                const auto a = orders.choose(engine, s, side, &rule);
                ++asked;
                if (!a)
                    continue;
                QCOMPARE(side, engine.actor(s)); // only the side whose decision it is
                QVERIFY2(std::find(legal.begin(), legal.end(), *a) != legal.end(),
                         qPrintable(formatAction(*data(), s, *a)));
                used[rule.section('=', 0, 0)] += 1;
            }
            QVERIFY(
                engine.apply(s, legal[chooseRandomAction(*data(), s, legal, RandomPolicy::Aggressive, pick)])
                    .ok);
        }
    }
    qInfo("orders asked %d times, used: %s", asked,
          qPrintable(QStringList([&] {
                         QStringList l;
                         for (auto it = used.begin(); it != used.end(); ++it)
                             l << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
                         return l;
                     }())
                         .join(", ")));
    for (const char* k : {"cards", "losses", "retreat"})
        QVERIFY2(used.value(QLatin1String(k)) > 0, k);
    // no orders: never a choice
    GameState s;
    QVERIFY(engine.newGame(s, QStringLiteral("campaign"), GameOptions{}, 9, &error));
    QVERIFY(!save::StandingOrders().choose(engine, s, engine.actor(s)));
    // bad orders are refused with the reason
    save::StandingOrders bad;
    QVERIFY(!bad.set(*data(), QStringLiteral("losses=dearest"), &error));
    QVERIFY2(error.contains(QStringLiteral("losses=dearest: expected ask|cheapest")), qPrintable(error));
    QVERIFY(!bad.set(*data(), QStringLiteral("retreat=inside,atlantis"), &error));
    QVERIFY2(error.contains(QStringLiteral("'atlantis'")), qPrintable(error));
    QVERIFY(!bad.set(*data(), QStringLiteral("bribe=yes"), &error));
    QVERIFY2(error.contains(QStringLiteral("unknown order 'bribe'")), qPrintable(error));
}

// Two games of random legal play (sealed dice), without and with standing orders on both sides, each
// until a few decisions the orders cover have come up. Without orders each of them costs a file: the
// file ends (no sealed roll) and the receiver's first decision is one his orders would take. With orders
// no file ends that way: the author's copy takes those decisions, and every file is verified by the
// receiving copy (which checks each ordered action against the orders and the engine).
void TestPbem::standingOrdersSaveHandOvers() {
    save::StandingOrders all;
    QString error;
    for (const QString& kv : kAllOrders)
        QVERIFY2(all.set(*data(), kv, &error), qPrintable(error));
    int spent[2] = {0, 0};
    for (int withOrders = 0; withOrders < 2; ++withOrders) {
        Match m;
        m.start(save::DiceMode::Sealed);
        if (withOrders) {
            m.orders(m.a, kAllOrders);
            m.orders(m.b, kAllOrders);
        }
        for (int k = 0; k < 400; ++k) {
            if (withOrders ? m.ordered >= 2 : spent[0] >= 2)
                break;
            const QByteArray f = m.play(static_cast<uint64_t>(k) + 1300);
            const bool plainHandOver = !m.lastSealed;
            QCOMPARE(m.deliver(f), QString());
            const save::PbemSession r = open(m.target);
            if (plainHandOver && r.canPlay() && all.choose(r.engine(), r.state(), r.mySide()))
                ++spent[withOrders];
        }
        qInfo("%s: %d files for %d actions; %d files handed over a decision the orders cover; %d actions "
              "taken by standing orders, %d of them inside a file",
              withOrders ? "with orders" : "without orders", m.files, m.actionsSent, spent[withOrders],
              m.ordered, m.orderedInside);
        if (withOrders) {
            QVERIFY(m.ordered >= 2);
            const save::PbemSession ca = open(m.a), pr = open(m.b);
            QCOMPARE(pr.opponentOrders().text(), ca.myOrders().text());
            QCOMPARE(ca.opponentOrders().text(), pr.myOrders().text());
            QVERIFY2(ca.status().contains(QStringLiteral("standing orders: yours react=out")),
                     qPrintable(ca.status()));
        } else
            QCOMPARE(m.ordered, 0);
    }
    QVERIFY(spent[0] >= 2); // without orders: a file for each of these decisions
    QCOMPARE(spent[1], 0);  // with orders: none
}

// The Protestant's standing orders are changed on their way to the Catholic (no signatures: the Catholic
// copy cannot tell). The Catholic copy applies the changed orders; its next file does not continue the
// file the Protestant sent, and the Protestant copy refuses it.
void TestPbem::tamperedOrderInTransit() {
    Match m;
    m.start(save::DiceMode::Sealed);
    m.orders(m.b, {QStringLiteral("losses=cheapest")});
    QCOMPARE(m.deliver(m.play(1)), QString()); // file 3, the Catholic's
    const QByteArray f4 = m.play(2);           // file 4, the Protestant's, with its orders
    QJsonObject o = inflate(f4);
    QCOMPARE(o["orders"].toObject()["losses"].toString(), QStringLiteral("cheapest"));
    QCOMPARE(o["version"].toInt(), 2);
    QJsonObject orders = o["orders"].toObject();
    orders["cards"] = QStringLiteral("none");
    orders["retreat"] = QStringLiteral("any");
    o["orders"] = orders;
    QCOMPARE(m.deliver(deflate(o), QStringLiteral("f4.pbem")), QString());
    QCOMPARE(open(m.a).opponentOrders().text(), QStringLiteral("cards=none losses=cheapest retreat=any"));
    const QString problem = m.deliver(m.play(3), QStringLiteral("f5.pbem"));
    QVERIFY2(problem.contains(QStringLiteral("does not continue file 4 as this side sent it")),
             qPrintable(problem));
    // an order the program does not know is refused at once
    Match n;
    n.start(save::DiceMode::Sealed);
    QCOMPARE(n.deliver(n.play(1)), QString());
    QJsonObject p = inflate(n.play(2));
    p["orders"] = QJsonObject{{"losses", "dearest"}};
    const QString bad = n.deliver(deflate(p), QStringLiteral("f4.pbem"));
    QVERIFY2(bad.contains(QStringLiteral("$.orders.losses")), qPrintable(bad));
}

// The author's file takes a decision for the receiver other than his orders give (an edited file or a
// modified client): refused, naming the order.
void TestPbem::orderNotFollowed() {
    Match m;
    m.start(save::DiceMode::Sealed);
    m.orders(m.a, kAllOrders);
    m.orders(m.b, kAllOrders);
    for (int k = 0; k < 600; ++k) {
        const QByteArray f = m.play(static_cast<uint64_t>(k) + 900);
        if (m.lastOrdered.isEmpty()) {
            QCOMPARE(m.deliver(f), QString());
            continue;
        }
        QJsonObject o = inflate(f);
        QJsonArray acts = o["actions"].toArray();
        const int at = m.lastOrdered.first();
        const QString was = acts[at].toString();
        acts[at] = was == QLatin1String("react out") ? QStringLiteral("react in")
                   : was == QLatin1String("pass")    ? QStringLiteral("react in")
                                                     : QStringLiteral("pass");
        o["actions"] = acts;
        // the cheat recomputes the log hash over the actions before the file (the sender's copy has them
        // all; the receiver may still wait for the result of its own last, sealed, action)
        relog(o, open(m.target == m.a ? m.b : m.a).allActions().mid(0, o["fromAction"].toInt()));
        const QString problem = m.deliver(deflate(o), QStringLiteral("evil.pbem"));
        QVERIFY2(problem.contains(QStringLiteral("standing order")) &&
                     problem.contains(QStringLiteral("gives '") + was),
                 qPrintable(problem));
        qInfo("%s", qPrintable(problem));
        QCOMPARE(m.deliver(f), QString()); // the true file goes in
        return;
    }
    QFAIL("no file with an action taken by standing orders");
}

// A game started with protocol 1 (before standing orders) goes on as protocol 1: its files carry no
// orders, orders cannot be set, a file with orders is refused; a file of a newer protocol is refused with
// the reason (tests/fixtures/saves/newer-protocol.pbem).
void TestPbem::protocolOneGame() {
    QTemporaryDir tmp;
    const QString a = tmp.filePath("a"), b = tmp.filePath("b");
    QString error;
    save::PbemSession host(data());
    QByteArray startFile, joinFile;
    QVERIFY2(
        host.create(QStringLiteral("campaign"), {}, kCatholic, save::DiceMode::Sealed, &startFile, &error),
        qPrintable(error));
    store(host, a);
    // the start file as protocol 1 wrote it (the same fields), in the host's directory too
    QJsonObject st = inflate(startFile);
    QCOMPARE(st["version"].toInt(), 2);
    st["version"] = 1;
    {
        QJsonObject sess = QJsonDocument::fromJson(readAll(a + "/session.json")).object();
        QJsonArray files = sess["files"].toArray();
        files[0] = st;
        sess["files"] = files;
        sess["version"] = 1;
        QFile f(a + "/session.json");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(sess).toJson());
    }
    save::PbemSession guest(data());
    QVERIFY2(guest.join(deflate(st), "start.pbem", &joinFile, &error), qPrintable(error));
    QCOMPARE(guest.protocolVersion(), 1);
    QCOMPARE(inflate(joinFile)["version"].toInt(), 1);
    QVERIFY(!guest.setMyOrders(save::StandingOrders(), &error));
    QVERIFY2(error.contains(QStringLiteral("protocol 1")), qPrintable(error));
    store(guest, b);
    save::PbemSession h = open(a);
    QVERIFY2(h.importFile(joinFile, "join.pbem", &error), qPrintable(error));
    QByteArray f3;
    QString name;
    QVERIFY2(h.exportFile(&f3, &name, false, &error), qPrintable(error));
    QCOMPARE(inflate(f3)["version"].toInt(), 1);
    QVERIFY(!inflate(f3).contains("orders"));
    QVERIFY(!h.status().contains(QStringLiteral("standing orders")));
    save::PbemSession g = open(b);
    QJsonObject withOrders = inflate(f3);
    withOrders["orders"] = QJsonObject{{"losses", "cheapest"}};
    QVERIFY(!g.importFile(deflate(withOrders), "f3.pbem", &error));
    QVERIFY2(error.contains(QStringLiteral("standing orders in a game of protocol 1")), qPrintable(error));
    QVERIFY2(g.importFile(f3, "f3.pbem", &error), qPrintable(error));
    QVERIFY(g.canPlay());
    // a newer protocol: refused before anything else, with the reason
    QFile newer(QStringLiteral(WESTPHALIA_TEST_DIR "/fixtures/saves/newer-protocol.pbem"));
    QVERIFY(newer.open(QIODevice::ReadOnly));
    save::PbemSession fresh(data());
    QVERIFY(!fresh.join(newer.readAll(), "newer-protocol.pbem", &joinFile, &error));
    QVERIFY2(
        error.contains(QStringLiteral("newer-protocol.pbem: $.version: PBEM protocol 9 is newer than this "
                                      "Westphalia reads")),
        qPrintable(error));
}

// A game whose battles go to the table names the battle data of its rulesets in the start file
// (docs/linked-battles.md "Both copies"): a guest with other battle data is refused at the join, with the
// reason, not weeks later at the first battle's record.
void TestPbem::battleDataAtJoin() {
    QString error;
    auto start = [&](const QStringList& options) {
        save::PbemSession host(data());
        QByteArray startFile;
        const bool ok = host.create(QStringLiteral("campaign"), options, kCatholic, save::DiceMode::Sealed,
                                    &startFile, &error);
        return ok ? inflate(startFile) : QJsonObject();
    };
    const QString tvbd = battle::battleDataHash(QStringLiteral("tvbd")),
                  tercios = battle::battleDataHash(QStringLiteral("tercios"));
    QCOMPARE(tvbd.size(), 16);
    QVERIFY(tvbd != tercios);                   // each ruleset's own tactical file
    QVERIFY(!start({}).contains("battleData")); // the CRT: no battle data needed
    QCOMPARE(start({QStringLiteral("battles=tvbd")})["battleData"].toObject(), QJsonObject({{"tvbd", tvbd}}));
    QCOMPARE(start({QStringLiteral("battles=tercios")})["battleData"].toObject(),
             QJsonObject({{"tercios", tercios}}));
    const QJsonObject ask = start({QStringLiteral("battles=ask")});
    QCOMPARE(ask["battleData"].toObject(), QJsonObject({{"tvbd", tvbd}, {"tercios", tercios}}));
    auto join = [&](const QJsonObject& st) {
        save::PbemSession guest(data());
        QByteArray joinFile;
        return guest.join(deflate(st), "start.pbem", &joinFile, &error);
    };
    QVERIFY2(join(ask), qPrintable(error));
    QJsonObject other = ask;
    other["battleData"] = QJsonObject{{"tvbd", tvbd}, {"tercios", "0123456789abcdef"}};
    QVERIFY(!join(other));
    QVERIFY2(
        error.startsWith(QStringLiteral("start.pbem: $.battleData.tercios: the host fights the battles with "
                                        "other battle data (0123456789abcdef, yours %1)")
                             .arg(tercios)),
        qPrintable(error));
    other["battleData"] = QJsonObject{{"napoleon", tvbd}};
    QVERIFY(!join(other));
    QCOMPARE(error, QStringLiteral("start.pbem: $.battleData.napoleon: not a ruleset (tvbd, tercios)"));
}

// The window's Orders… dialog (offscreen): shows the orders, refuses a bad retreat list with the reason,
// and what it accepts reaches the session through the controller and goes out with the next file.
void TestPbem::ordersDialog() {
    Match m;
    m.start(save::DiceMode::Sealed);
    save::StandingOrders mine, theirs;
    QString error;
    QVERIFY(mine.set(*data(), QStringLiteral("react=in"), &error));
    QVERIFY(theirs.set(*data(), QStringLiteral("cards=none"), &error));
    OrdersDialog dlg(*data(), mine, theirs);
    QCOMPARE(dlg.box(QStringLiteral("react"))->currentData().toString(), QStringLiteral("in"));
    QCOMPARE(dlg.box(QStringLiteral("losses"))->currentData().toString(), QStringLiteral("ask"));
    QVERIFY(dlg.findChild<QLabel*>(QStringLiteral("ordersOpponent"))
                ->text()
                .contains(QStringLiteral("cards=none")));
    dlg.box(QStringLiteral("losses"))
        ->setCurrentIndex(dlg.box(QStringLiteral("losses"))->findData("cheapest"));
    dlg.retreatEdit()->setText(QStringLiteral("inside, atlantis"));
    dlg.accept();
    QCOMPARE(dlg.result(), int(QDialog::Rejected)); // still open
    QVERIFY2(dlg.errorLabel()->text().contains(QStringLiteral("'atlantis'")),
             qPrintable(dlg.errorLabel()->text()));
    dlg.retreatEdit()->setText(QStringLiteral("inside, any"));
    dlg.accept();
    QCOMPARE(dlg.result(), int(QDialog::Accepted));
    QCOMPARE(dlg.orders().text(), QStringLiteral("react=in losses=cheapest retreat=inside,any"));
    // through the controller into the session directory, and out with the next file
    GameController gc(data());
    QVERIFY2(gc.openPbem(m.a, &error), qPrintable(error));
    QVERIFY2(gc.setPbemOrders(dlg.orders(), &error), qPrintable(error));
    QCOMPARE(open(m.a).myOrders().text(), QStringLiteral("react=in losses=cheapest retreat=inside,any"));
    const QByteArray f = m.play(1);
    QCOMPARE(inflate(f)["orders"].toObject()["losses"].toString(), QStringLiteral("cheapest"));
    QCOMPARE(m.deliver(f), QString());
    QCOMPARE(open(m.b).opponentOrders().text(),
             QStringLiteral("react=in losses=cheapest retreat=inside,any"));
}

QTEST_MAIN(TestPbem)
#include "test_pbem.moc"
