// Battle export to Tilly's Very Bad Day v2.0 (issue 9, docs/battle-export.md): the generated scenario loads
// in model/tactical, passes the army-list check (TVBD 7.3.2/7.3.3), plays to a result, is deterministic,
// and carries the combat cards' effects.
#include "battle/export.h"
#include "data/datadir.h"
#include "data/loader.h"
#include "rules/action.h"
#include "rules/engine.h"
#include "save/savefile.h"
#include "tactical/tactical_game.h"
#include "tactical/tvbd.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace wp::battle;
using namespace wp::tactical;

class TestBattle : public QObject {
    Q_OBJECT
    const TvbdRules* rules = nullptr;
    TvbdMapping map;

    BattleInput fixture(const QString& name) {
        const QString path = QStringLiteral(WESTPHALIA_TEST_DIR "/fixtures/battle/") + name;
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            qFatal("cannot open %s", qPrintable(path));
        BattleInput in;
        QString error;
        if (!inputFromJson(QJsonDocument::fromJson(f.readAll()).object(), path, &in, &error))
            qFatal("%s", qPrintable(error));
        return in;
    }
    // Loads the export through the tactical loader and checks the army lists; returns the state.
    BattleState load(const QJsonObject& o) {
        BattleState s;
        QString error;
        [&] {
            QVERIFY2(scenarioFromJson(o, QStringLiteral("export"), *rules, &s, &error), qPrintable(error));
        }();
        return s;
    }
    static QList<const Unit*> unitsOf(const BattleState& s, int side, UnitType t) {
        QList<const Unit*> out;
        for (const Unit& u : s.units)
            if (u.side == side && u.type == t)
                out << &u;
        return out;
    }
    static bool hasNote(const QJsonObject& o, const QString& part) {
        for (const QJsonValue& v : o.value(QStringLiteral("notes")).toArray())
            if (v.toString().contains(part))
                return true;
        return false;
    }
    void checkLegal(const BattleState& s, const QString& what) {
        for (int side = 0; side < 2; ++side) {
            const QStringList p = armyListProblems(s, side);
            QVERIFY2(p.isEmpty(), qPrintable(what + QStringLiteral(": ") + p.join(QStringLiteral("; "))));
            // tilly-digest 11.5: every Pike+Shot starts in the centre zone.
            for (const Unit* u : unitsOf(s, side, UnitType::PikeShot))
                QVERIFY2(std::abs(u->pose.c.x - s.tableW / 2) + 1 <= s.centreW / 2 + 1e-9, qPrintable(what));
            // 10.6: deployed between the base edge and 4 TUM short of the centre line.
            for (const Unit& u : s.units)
                if (u.side == side)
                    QVERIFY2(side == 0 ? u.pose.c.y < s.tableD / 2 - 4 : u.pose.c.y > s.tableD / 2 + 4,
                             qPrintable(what + QStringLiteral(" ") + u.id));
        }
    }

  private slots:
    void initTestCase() {
        QString error;
        rules = defaultTvbdRules(&error);
        QVERIFY2(rules, qPrintable(error));
        QVERIFY2(
            loadMapping(QStringLiteral(WESTPHALIA_SOURCE_DIR "/scenarios/battle-mapping.json"), &map, &error),
            qPrintable(error));
    }

    void breitenfeld() {
        const BattleInput in = fixture(QStringLiteral("breitenfeld.json"));
        const QJsonObject o = exportTvbd(in, map, *rules, 1631);
        const BattleState s = load(o);
        checkLegal(s, QStringLiteral("breitenfeld"));
        QCOMPARE(s.attacker, 0);
        QCOMPARE(s.sideName[0], QStringLiteral("Swedes and Saxons"));
        // 5 Swedish veterans after 1630 -> superior brigades (mapping); regimental guns: 1 + 7/6 + 1 Cannon.
        int superiorPS = 0;
        for (const Unit* u : unitsOf(s, 0, UnitType::PikeShot))
            superiorPS += u->quality == Quality::Superior;
        QVERIFY(superiorPS >= 5);
        QCOMPARE(unitsOf(s, 0, UnitType::Cannon).size(), 3);
        QCOMPARE(unitsOf(s, 1, UnitType::Cannon).size(), 2);
        // Saxon militia: raw Pike+Shot and Rabble.
        QCOMPARE(unitsOf(s, 0, UnitType::Rabble).size(), 2);
        // 3 reduced Bavarian units: one stand each, a quality lower (PikeShot ordinary -> inferior).
        int bavarianStands = 0;
        for (const Unit& u : s.units)
            bavarianStands += u.side == 1 && u.type != UnitType::Commander && u.type != UnitType::Cannon;
        QCOMPARE(bavarianStands, 4 * 2 + 3);
        int inferior = 0;
        for (const Unit* u : unitsOf(s, 1, UnitType::PikeShot))
            inferior += u->quality == Quality::Inferior;
        QCOMPARE(inferior, 3);
        // C49 Unreliable Troops (played by the Catholic): two Saxon militia stands start one resolve
        // down.
        int shaken = 0;
        for (const Unit& u : s.units)
            if (u.side == 0 && u.resolve < u.startResolve) {
                QVERIFY(u.name.startsWith(QStringLiteral("Saxon militia")));
                ++shaken;
            }
        QCOMPARE(shaken, 2);
        QVERIFY(hasNote(o, QStringLiteral("Unreliable Troops")));
        QVERIFY(hasNote(o, QStringLiteral("Swedish Firepower")));
        QCOMPARE(unitsOf(s, 0, UnitType::Shot).size(), 1); // P34: a superior Swedish Shot
        QCOMPARE(unitsOf(s, 0, UnitType::Shot)[0]->quality, Quality::Superior);
        QVERIFY(hasNote(o, QStringLiteral("Command Rivalry")));
        // Commanders from leaders: three commands cut left to right, the army commander in the middle one.
        QCOMPARE(s.commands.size(), 5);
        QVERIFY(s.units[s.commands[1].commander].name.startsWith(QStringLiteral("Gustavus Adolphus")));
        QVERIFY(s.units[s.commands[0].commander].name.startsWith(QStringLiteral("Johan Baner")));
        // Terrain: the town at Leipzig.
        QVERIFY(std::any_of(s.terrain.begin(), s.terrain.end(),
                            [](const TerrainFeature& f) { return f.type == QLatin1String("town"); }));
        // It plays to a result in the TVBD engine.
        TvbdEngine e(*rules);
        TacticalGame g(e, s, 7);
        const AutoResult r = autoResolve(g, Policy::Simple, 7);
        QVERIFY2(r.winner >= 0, qPrintable(r.reason));
    }

    void whiteMountain() {
        const BattleInput in = fixture(QStringLiteral("white-mountain.json"));
        const QJsonObject o = exportTvbd(in, map, *rules, 1620);
        const BattleState s = load(o);
        checkLegal(s, QStringLiteral("white mountain"));
        // Surprise Attack: the attacker always has the initiative and the defender's guns start limbered.
        QVERIFY(s.attackerAlwaysInitiative);
        for (const Unit* u : unitsOf(s, 1, UnitType::Cannon))
            QVERIFY(u->limbered);
        for (const Unit* u : unitsOf(s, 0, UnitType::Cannon))
            QVERIFY(!u->limbered);
        // Hungarian light horse, Spanish tercios (superior), Imperial Croats capped at 2 Light Horse (7.3.2).
        QCOMPARE(unitsOf(s, 1, UnitType::LightHorse).size(), 2);
        QCOMPARE(unitsOf(s, 0, UnitType::LightHorse).size(), 2);
        int spanish = 0;
        for (const Unit* u : unitsOf(s, 0, UnitType::PikeShot))
            spanish += u->name.startsWith(QStringLiteral("Spanish")) && u->quality == Quality::Superior;
        QCOMPARE(spanish, 2);
        // No Swedes in 1620: no regimental guns.
        QVERIFY(!hasNote(o, QStringLiteral("regimental")));
        TvbdEngine e(*rules);
        TacticalGame g(e, s, 3);
        const AutoResult r = autoResolve(g, Policy::Simple, 3);
        QVERIFY2(r.winner >= 0, qPrintable(r.reason));
    }

    // The readable expected outputs (tests/fixtures/battle/*.tvbd.json, written by `westphalia-cli battle
    // export --input X.json --rules tvbd --seed S --out X.tvbd.json`): a change of the generator or the
    // mapping shows up here and the files are regenerated on purpose, after looking at them.
    void expectedOutputs_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("seed");
        QTest::newRow("breitenfeld") << QStringLiteral("breitenfeld") << 1631;
        QTest::newRow("white-mountain") << QStringLiteral("white-mountain") << 1620;
    }
    void expectedOutputs() {
        QFETCH(QString, name);
        QFETCH(int, seed);
        QFile f(QStringLiteral(WESTPHALIA_TEST_DIR "/fixtures/battle/") + name +
                QStringLiteral(".tvbd.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(exportTvbd(fixture(name + QStringLiteral(".json")), map, *rules, quint64(seed)),
                 QJsonDocument::fromJson(f.readAll()).object());
    }

    void determinism() {
        const BattleInput in = fixture(QStringLiteral("breitenfeld.json"));
        const QByteArray a = QJsonDocument(exportTvbd(in, map, *rules, 5)).toJson();
        QCOMPARE(QJsonDocument(exportTvbd(in, map, *rules, 5)).toJson(), a);
        // Another seed changes the terrain only.
        QJsonObject x = exportTvbd(in, map, *rules, 5), y = exportTvbd(in, map, *rules, 6);
        QVERIFY(x.value(QStringLiteral("terrain")) != y.value(QStringLiteral("terrain")));
        QCOMPARE(x.value(QStringLiteral("commands")), y.value(QStringLiteral("commands")));
    }

    void cardEffects() {
        // Each mapped card changes the scenario or leaves its note.
        BattleInput in = fixture(QStringLiteral("white-mountain.json"));
        in.sides[0].cards.clear();
        const BattleState base = load(exportTvbd(in, map, *rules, 1));
        const QJsonObject cards = map.root.value(QStringLiteral("cards")).toObject();
        for (auto it = cards.begin(); it != cards.end(); ++it) {
            BattleInput c = in;
            c.sides[1].cards = {it.key()}; // played by the defender
            const QJsonObject o = exportTvbd(c, map, *rules, 1);
            const BattleState s = load(o);
            checkLegal(s, it.key());
            QVERIFY2(hasNote(o, it.key()), qPrintable(it.key()));
            const QString eff = it.value().toObject().value(QStringLiteral("effect")).toString();
            if (eff == QLatin1String("limberCannon"))
                for (const Unit* u : unitsOf(s, 0, UnitType::Cannon))
                    QVERIFY(u->limbered);
            if (eff == QLatin1String("addCannon"))
                QCOMPARE(unitsOf(s, 1, UnitType::Cannon).size(),
                         unitsOf(base, 1, UnitType::Cannon).size() + 1);
            if (eff == QLatin1String("fortify"))
                QCOMPARE(s.terrain.size(), base.terrain.size() + 1);
        }
    }

    void everySize() {
        const QList<std::pair<ForceUnit, ForceUnit>> pairings = {
            {{QStringLiteral("swedish"), QStringLiteral("veteran")},
             {QStringLiteral("imperial"), QStringLiteral("mercenary")}},
            {{QStringLiteral("spanish"), QStringLiteral("veteran")},
             {QStringLiteral("protestant"), QStringLiteral("militia")}},
            {{QStringLiteral("hungarian"), QStringLiteral("mercenary")},
             {QStringLiteral("french"), QStringLiteral("veteran")}},
            {{QStringLiteral("danish"), QStringLiteral("mercenary"), true},
             {QStringLiteral("bavarian"), QStringLiteral("mercenary")}},
        };
        int n = 0;
        for (const auto& [a, b] : pairings)
            for (int na = 1; na <= 16; ++na)
                for (int nb = 1; nb <= 16; ++nb) {
                    BattleInput in;
                    in.year = 1632;
                    in.city = QStringLiteral("X");
                    in.sides[0].name = QStringLiteral("A");
                    in.sides[1].name = QStringLiteral("B");
                    for (int i = 0; i < na; ++i)
                        in.sides[0].units << a;
                    for (int i = 0; i < nb; ++i)
                        in.sides[1].units << b;
                    in.sides[0].cards = {QStringLiteral("Croats"), QStringLiteral("Massed Artillery")};
                    in.sides[1].cards = {QStringLiteral("Field Fortifications"),
                                         QStringLiteral("Unreliable Troops")};
                    const QString what = QStringLiteral("%1 x%2 v %3 x%4")
                                             .arg(a.nationality)
                                             .arg(na)
                                             .arg(b.nationality)
                                             .arg(nb);
                    const BattleState s = load(exportTvbd(in, map, *rules, quint64(na * 100 + nb)));
                    checkLegal(s, what);
                    if (QTest::currentTestFailed())
                        return;
                    // Unequal armies stay unequal.
                    if (na > nb && a.reduced == b.reduced)
                        QVERIFY2(s.originalUnits[0] >= s.originalUnits[1], qPrintable(what));
                    ++n;
                }
        QCOMPARE(n, 4 * 16 * 16);
    }

    // A campaign game played by random legal actions up to its first combat: the battle on top of the
    // state exports and loads, and the CLI replays the same log to the same JSON.
    void fromCampaign() {
        const wp::LoadResult data = wp::loadGameData(wp::findDataDir());
        QVERIFY(data.ok());
        const wp::rules::Engine engine(data.data);
        wp::rules::GameState s;
        QString error;
        QVERIFY2(engine.newGame(s, QStringLiteral("campaign"), {}, 11, &error), qPrintable(error));
        wp::rules::Rng pick(5);
        QStringList log;
        auto atCombat = [&] {
            return !s.frames.empty() && std::holds_alternative<wp::rules::CombatFrame>(s.frames.back());
        };
        for (int i = 0; i < 20000 && !atCombat() && engine.actor(s) >= 0; ++i) {
            const auto legal = engine.legalActions(s);
            QVERIFY(!legal.empty());
            const auto& a = legal[size_t(pick.below(int(legal.size())))];
            log << wp::rules::formatAction(engine.data(), s, a);
            QVERIFY(engine.apply(s, a).ok);
        }
        QVERIFY2(atCombat(), "no combat reached");
        BattleInput in;
        QVERIFY2(inputFromState(engine.data(), s, &in, &error), qPrintable(error));
        QVERIFY(!in.sides[0].units.isEmpty() && !in.sides[1].units.isEmpty());
        QCOMPARE(in.year, 1618 + 2 * int(s.turn));
        const QJsonObject o = exportTvbd(in, map, *rules, 11);
        checkLegal(load(o), QStringLiteral("campaign"));

        QTemporaryDir dir;
        const QString actions = dir.filePath(QStringLiteral("game.actions"));
        QFile f(actions);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write((log.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8());
        f.close();
        const QString outFile = dir.filePath(QStringLiteral("battle.json"));
        QProcess p;
        p.start(QStringLiteral(WESTPHALIA_CLI),
                {QStringLiteral("battle"), QStringLiteral("export"), QStringLiteral("--scenario"),
                 QStringLiteral("campaign"), QStringLiteral("--seed"), QStringLiteral("11"),
                 QStringLiteral("--actions"), actions, QStringLiteral("--rules"), QStringLiteral("tvbd"),
                 QStringLiteral("--out"), outFile});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError())));
        QFile r(outFile);
        QVERIFY(r.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(r.readAll()).object(), o);
        p.start(QStringLiteral(WESTPHALIA_CLI), {QStringLiteral("battle"), QStringLiteral("validate"),
                                                 outFile, QStringLiteral("--rules"), QStringLiteral("tvbd")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).contains(QStringLiteral("legal")));
        // The same battle from a save (issue 9: a past battle of a saved game): `battle list --save` numbers
        // it, `battle export --save --combat 1` exports the same scenario.
        wp::save::SaveGame g;
        g.fingerprint = data.data->fingerprint;
        g.scenario = QStringLiteral("campaign");
        g.seed = 11;
        g.actions = log;
        const QString tyw = dir.filePath(QStringLiteral("game.tyw"));
        QVERIFY2(wp::save::writeFile(tyw, g, &error), qPrintable(error));
        p.start(QStringLiteral(WESTPHALIA_CLI),
                {QStringLiteral("battle"), QStringLiteral("list"), QStringLiteral("--save"), tyw});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError())));
        const QString listed = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(listed.startsWith(QStringLiteral("1  turn %1  %2").arg(s.turn).arg(in.title)),
                 qPrintable(listed));
        QVERIFY2(listed.contains(QStringLiteral("\n1 combat;")), qPrintable(listed));
        const QString fromSave = dir.filePath(QStringLiteral("from-save.json"));
        p.start(QStringLiteral(WESTPHALIA_CLI),
                {QStringLiteral("battle"), QStringLiteral("export"), QStringLiteral("--save"), tyw,
                 QStringLiteral("--combat"), QStringLiteral("1"), QStringLiteral("--battle-seed"),
                 QStringLiteral("11"), QStringLiteral("--rules"), QStringLiteral("tvbd"),
                 QStringLiteral("--out"), fromSave});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError())));
        QFile rs(fromSave);
        QVERIFY(rs.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(rs.readAll()).object(), o);
        // Issue 9: the CLI writes the printable briefing (PDF) and the table map (SVG) too, for either
        // ruleset.
        for (const char* ruleset : {"tvbd", "tercios"}) {
            const QString pdf = dir.filePath(QStringLiteral("briefing-%1.pdf").arg(QLatin1String(ruleset)));
            const QString svg = dir.filePath(QStringLiteral("table-%1.svg").arg(QLatin1String(ruleset)));
            p.start(QStringLiteral(WESTPHALIA_CLI),
                    {QStringLiteral("battle"), QStringLiteral("export"), QStringLiteral("--save"), tyw,
                     QStringLiteral("--rules"), QLatin1String(ruleset), QStringLiteral("--out"),
                     dir.filePath(QStringLiteral("b-%1.json").arg(QLatin1String(ruleset))),
                     QStringLiteral("--pdf"), pdf, QStringLiteral("--svg"), svg});
            QVERIFY(p.waitForFinished(60000));
            QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError())));
            QFile pf(pdf), sf(svg);
            QVERIFY(pf.open(QIODevice::ReadOnly) && sf.open(QIODevice::ReadOnly));
            const QByteArray pdfBytes = pf.readAll(), svgBytes = sf.readAll();
            QVERIFY(pdfBytes.startsWith("%PDF") && pdfBytes.size() > 20000); // several pages with a map
            QVERIFY(svgBytes.contains("<svg") && svgBytes.contains(in.title.toUtf8().left(6)));
        }
        p.start(QStringLiteral(WESTPHALIA_CLI),
                {QStringLiteral("battle"), QStringLiteral("export"), QStringLiteral("--input"),
                 dir.filePath(QStringLiteral("none.json")), QStringLiteral("--rules"), QStringLiteral("tvbd"),
                 QStringLiteral("--out"), fromSave, QStringLiteral("--pdf"),
                 dir.filePath(QStringLiteral("x.pdf"))});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2); // --pdf needs a campaign battle
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QStringLiteral("--pdf and --svg need")));
        p.start(QStringLiteral(WESTPHALIA_CLI),
                {QStringLiteral("battle"), QStringLiteral("export"), QStringLiteral("--save"), tyw,
                 QStringLiteral("--combat"), QStringLiteral("2"), QStringLiteral("--rules"),
                 QStringLiteral("tvbd"), QStringLiteral("--out"), fromSave});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(QString::fromUtf8(p.readAllStandardError())
                    .contains(tyw + QStringLiteral(": the actions reach 1 combat(s), not combat 2")));
        // Bad input: an action that does not read names the file and line.
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("fly to the moon\n");
        f.close();
        p.start(QStringLiteral(WESTPHALIA_CLI),
                {QStringLiteral("battle"), QStringLiteral("export"), QStringLiteral("--scenario"),
                 QStringLiteral("campaign"), QStringLiteral("--actions"), actions, QStringLiteral("--rules"),
                 QStringLiteral("tvbd"), QStringLiteral("--out"), outFile});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(QString::fromUtf8(p.readAllStandardError())
                    .contains(actions + QStringLiteral(":1: cannot read")));
    }

    void badInput() {
        QString error;
        TvbdMapping m;
        QVERIFY(!loadMapping(QStringLiteral("/nonexistent/map.json"), &m, &error));
        QVERIFY(error.contains(QStringLiteral("/nonexistent/map.json")));
        BattleInput in;
        QJsonObject o =
            QJsonDocument::fromJson(
                R"({"year": 1631, "sides": [{"name": "A", "units": [{"nationality": "swedish", "kind": "elite"}]}, {"name": "B", "units": []}]})")
                .object();
        QVERIFY(!inputFromJson(o, QStringLiteral("b.json"), &in, &error));
        QCOMPARE(error, QStringLiteral(
                            "b.json: sides[0].units[0].kind: 'elite' is not veteran, mercenary or militia"));
    }
};

QTEST_GUILESS_MAIN(TestBattle)
#include "test_battle.moc"
