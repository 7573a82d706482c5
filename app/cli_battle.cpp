// westphalia-cli battle export / validate (issue 9): a campaign battle as a Tilly's Very Bad Day v2.0
// scenario (docs/battle-export.md), and the army-list check of a scenario file.
#include "cli_commands.h"
#include "cli_game.h"

#include "battle/export.h"
#include "battle/site.h"
#include "battleexportdialog.h"
#include "data/words.h"
#include "rules/action.h"
#include "rules/state.h"
#include "save/savefile.h"
#include "tactical/tercios.h"
#include "tactical/tvbd.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

#include <variant>

namespace wp::cli {

namespace {

const char* kBattleUsage =
    R"(usage: westphalia-cli battle list (--save FILE.tyw | --scenario ID|POSITION [--actions FILE] [--seed N])
       westphalia-cli battle export (--scenario ID|POSITION [--actions FILE] [--battle N] | --save FILE.tyw
                                   [--battle N] | --input FILE)
                                   [--seed N] [--battle-seed S] [--mapping FILE] [--deploy] --rules tvbd|tercios
                                   --out DIR|FILE.json [--pdf FILE.pdf] [--svg FILE.svg] [--png FILE.png]
       westphalia-cli battle validate FILE.json --rules tvbd|tercios
       westphalia-cli battle run FILE.json [--rules tvbd|tercios] [--seed S] [--auto] [--odds N] [--log] ...
       westphalia-cli battle report GAME | battle calibrate --rules tvbd|tercios --games N
                                   (linked battles: the same as battle-link report|calibrate; see battle-link --help)
  list      replays the campaign (a save, or a scenario and its actions) and numbers every combat reached
  export    replays the campaign actions (one per line, docs/actions.md) from the scenario or position, or
            the actions of a save (--save), and exports the N-th battle reached (default the first; numbered
            from 1 in log order, as battle list numbers them; --combat N is the same) as a battle scenario;
            or exports an explicit battle description (--input, docs/battle-export.md)
  --out DIR         writes DIR/battle-N.RULES.json, .pdf and .svg (an --input file: its name instead of
                    battle-N); --out FILE.json writes the JSON only (add --pdf, --svg, --png)
  --seed N          the campaign game's seed (default 1); with --save (which has its own) or --input, the
                    battle's seed
  --battle-seed S   the battle's seed; by default a campaign battle's is the one the window's Export battle
                    uses (from the game's seed and the combat), so both give the same scenario
  --deploy          the players deploy the armies (TVBD 10.5-10.6; Tercios L1501-1505): the scenario has the
                    terrain and the forces, without places (the mapping's "deploy")
  --mapping FILE    the campaign->tactical mapping (default scenarios/battle-mapping.json)
  --pdf FILE.pdf    also the printable briefing (title, situation, orders of battle, the table map, special
                    rules, victory conditions, a casualty roster), as the window's Export battle writes it
  --svg FILE.svg    also the table map as SVG
  --png FILE.png    also the briefing's pages as images (FILE.png, FILE-2.png, ...), to look at
  validate  loads a battle scenario and checks both army lists (TVBD 7.3.2, 7.3.3; Tercios L818-1037)
  --rules tercios   Brevis Editio: Tercios (docs/tercios.md; the mapping's "tercios" section)
  run       plays a battle scenario with the miniatures module: --auto resolves it with both sides played
            by the computer and prints the result (winner, units lost and routed, Commanders lost, turns);
            --odds N resolves N battles and prints the win probabilities with a 95% confidence interval.
            The ruleset is read from the file when --rules is not given; every other option is the one of
            `westphalia-cli tactical tvbd|tercios` (--log, --actions, --legal, --policy, --bench, --jobs)
)";

// `battle run FILE --rules R ...` is `tactical R --scenario FILE ...` (app/cli_tactical.cpp).
int runCommand(QStringList args) {
    if (args.isEmpty() || args.front().startsWith(QLatin1String("--"))) {
        err() << "westphalia-cli battle run: which battle scenario? (battle run FILE.json ...)\n";
        return 2;
    }
    const QString file = args.takeFirst();
    QJsonObject root;
    QString error;
    if (!wp::tactical::readJsonObject(file, &root, &error)) {
        err() << "westphalia-cli battle run: " << error << "\n";
        return 1;
    }
    // The file's own ruleset: its "format" (docs/tvbd.md, docs/tercios.md), else its "rules".
    const QString format = root.value(QStringLiteral("format")).toString();
    const QString fileRules = format == QLatin1String("westphalia-tercios-scenario")
                                  ? QStringLiteral("tercios")
                              : format == QLatin1String("westphalia-tactical-scenario")
                                  ? QStringLiteral("tvbd")
                                  : root.value(QStringLiteral("rules")).toString();
    QString rules = fileRules;
    if (const qsizetype i = args.indexOf(QStringLiteral("--rules")); i >= 0) {
        if (i + 1 >= args.size()) {
            err() << "westphalia-cli battle run: --rules needs tvbd or tercios\n";
            return 2;
        }
        rules = args.at(i + 1);
        args.remove(i, 2);
    }
    if (rules != QLatin1String("tvbd") && rules != QLatin1String("tercios")) {
        err() << "westphalia-cli battle run: " << file << ": the ruleset '" << rules
              << "' is not tvbd or tercios (give --rules)\n";
        return 2;
    }
    if (!fileRules.isEmpty() && rules != fileRules) {
        err() << "westphalia-cli battle run: " << file << ": format \"" << format << "\" is a " << fileRules
              << " scenario, not a " << rules << " one (give --rules " << fileRules << " or leave it out)\n";
        return 2;
    }
    return tacticalCommand(QStringList{rules, QStringLiteral("--scenario"), file} + args);
}

bool readSeed(const QString& text, const char* name, quint64* out, QString* problem) {
    if (text.isEmpty())
        return true;
    bool ok = false;
    *out = text.toULongLong(&ok);
    if (!ok)
        *problem =
            QStringLiteral("%1 '%2' is not a non-negative whole number").arg(QLatin1String(name), text);
    return ok;
}

// The Tercios half of the export: the scenario must load and both armies pass the army-building check.
int writeTercios(const battle::BattleInput& in, const battle::TerciosMapping& mapping, quint64 seed,
                 const QString& outFile) {
    QString error;
    const wp::tactical::TerciosRules* rules = wp::tactical::defaultTerciosRules(&error);
    if (!rules) {
        err() << "westphalia-cli battle: " << error << "\n";
        return 1;
    }
    const QJsonObject o = battle::exportTercios(in, mapping, *rules, seed);
    wp::tactical::TerciosState st;
    if (!wp::tactical::terciosScenarioFromJson(o, outFile, *rules, &st, &error)) {
        err() << "westphalia-cli battle: internal error, the export does not load: " << error << "\n";
        return 1;
    }
    for (int side = 0; side < 2; ++side) {
        const QStringList pr =
            wp::tactical::armyProblems(*rules, wp::tactical::armyOf(st, side, st.pointsLimit));
        if (!pr.isEmpty()) {
            err() << "westphalia-cli battle: internal error, the exported army of " << st.sideName[side]
                  << " is not legal: " << pr.join(QStringLiteral("; ")) << "\n";
            return 1;
        }
    }
    QSaveFile f(outFile);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(o).toJson(QJsonDocument::Indented)) < 0 ||
        !f.commit()) {
        err() << "westphalia-cli battle: cannot write " << outFile << ": " << f.errorString() << "\n";
        return 1;
    }
    int units[2] = {0, 0};
    for (const wp::tactical::TUnit& u : st.units)
        ++units[u.side];
    out() << "wrote " << outFile << ": " << in.title << ", Tercios, " << st.sideName[0] << " " << units[0]
          << " units (" << wp::tactical::armyCost(*rules, wp::tactical::armyOf(st, 0, st.pointsLimit))
          << " points), " << st.sideName[1] << " " << units[1] << " units ("
          << wp::tactical::armyCost(*rules, wp::tactical::armyOf(st, 1, st.pointsLimit)) << " points), seed "
          << seed << "\n";
    return 0;
}

int validateTercios(const QString& file) {
    QString error;
    const wp::tactical::TerciosRules* rules = wp::tactical::defaultTerciosRules(&error);
    if (!rules) {
        err() << "westphalia-cli battle: " << error << "\n";
        return 1;
    }
    wp::tactical::TerciosState s;
    if (!wp::tactical::loadTerciosScenario(file, *rules, &s, &error)) {
        err() << error << "\n";
        return 1;
    }
    int bad = 0;
    for (int side = 0; side < 2; ++side) {
        const wp::tactical::ArmyList a = wp::tactical::armyOf(s, side, s.pointsLimit);
        const QStringList problems = wp::tactical::armyProblems(*rules, a);
        out() << s.sideName[side] << " (" << s.faction[side] << "): " << a.regiments.size() << " regiments, "
              << wp::tactical::armyCost(*rules, a) << " of " << s.pointsLimit
              << " points: " << (problems.isEmpty() ? QStringLiteral("legal") : QStringLiteral("ILLEGAL"))
              << "\n";
        for (const QString& pr : problems)
            out() << "  " << file << ": " << pr << "\n";
        bad += int(problems.size());
    }
    return bad ? 1 : 0;
}

// The actions of a file, one per line (comments after '#'); false with *error when it cannot be read.
bool readActionLines(const QString& file, QStringList* lines, QString* error) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *error = QStringLiteral("cannot read %1: %2").arg(file, f.errorString());
        return false;
    }
    *lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    return true;
}

// Where the campaign actions come from: a file of actions (`where` names its lines) or a save's list.
struct ActionSource {
    QString name; // "moves.txt" or "game.tyw"
    QStringList lines;
    bool fromSave = false;
    QString where(qsizetype i) const {
        return fromSave ? QStringLiteral("%1: action %2").arg(name).arg(i + 1)
                        : QStringLiteral("%1:%2").arg(name).arg(i + 1);
    }
};

bool atCombat(const rules::GameState& s) {
    return !s.frames.empty() && std::holds_alternative<rules::CombatFrame>(s.frames.back());
}

// Replays the actions; calls `reached(k)` each time a (k-th, from 1) combat comes on top of the frame stack,
// and stops when it returns true. Returns 0, or 1 with *error naming the line and the problem.
template <class F>
int replayCombats(const rules::Engine& engine, rules::GameState& s, const ActionSource& src, F&& reached,
                  QString* error, bool* stopped) {
    int seen = 0;
    bool was = atCombat(s);
    *stopped = false;
    if (was && reached(++seen)) {
        *stopped = true;
        return 0;
    }
    for (qsizetype i = 0; i < src.lines.size(); ++i) {
        const QString text = src.lines[i].section(QLatin1Char('#'), 0, 0).trimmed();
        if (text.isEmpty())
            continue;
        QString why;
        const std::optional<rules::Action> a = rules::parseAction(engine.data(), s, text, &why);
        if (!a) {
            *error = QStringLiteral("%1: cannot read '%2': %3").arg(src.where(i), text, why);
            return 1;
        }
        const rules::ApplyResult r = engine.apply(s, *a);
        if (!r.ok) {
            *error = QStringLiteral("%1: illegal action '%2': %3").arg(src.where(i), text, r.error);
            return 1;
        }
        const bool now = atCombat(s);
        if (now && !was && reached(++seen)) {
            *stopped = true;
            return 0;
        }
        was = now;
    }
    return 0;
}

// Replays the actions until the n-th combat is on top of the frame stack.
int replayToCombat(const rules::Engine& engine, rules::GameState& s, const ActionSource& src, int n,
                   QString* error) {
    int seen = 0;
    bool stopped = false;
    if (int rc = replayCombats(
            engine, s, src,
            [&](int k) {
                seen = k;
                return k == n;
            },
            error, &stopped);
        rc != 0)
        return rc;
    if (stopped)
        return 0;
    *error = src.name.isEmpty()
                 ? QStringLiteral("no combat in the position; give --actions FILE leading to one")
                 : QStringLiteral("%1: the actions reach %2, not combat %3")
                       .arg(src.name, wp::counted(seen, "combat"))
                       .arg(n);
    return 1;
}

// The game a battle command starts from: --save FILE.tyw (its scenario, options, seed and actions), or
// --scenario ID|POSITION with --actions FILE and --seed. Returns 0, or the exit code with *error.
int startCampaign(const rules::Engine& engine, const QString& scenario, const QString& actionsFile,
                  const QString& saveFile, quint64 seed, rules::GameState& s, ActionSource* src,
                  QString* error, quint64* gameSeed = nullptr) {
    GameSetup setup;
    if (!saveFile.isEmpty()) {
        const std::optional<save::SaveGame> g = save::readFile(saveFile, error);
        if (!g)
            return 1;
        setup.scenario = g->scenario;
        setup.options = g->options;
        setup.seed = g->seed;
        src->name = saveFile;
        src->lines = g->actions;
        src->fromSave = true;
    } else {
        setup.scenario = scenario;
        setup.seed = seed;
        if (!actionsFile.isEmpty()) {
            src->name = actionsFile;
            if (!readActionLines(actionsFile, &src->lines, error))
                return 1;
        }
    }
    if (gameSeed)
        *gameSeed = setup.seed.value_or(1);
    return startGame(engine, setup, s, nullptr, error);
}

// westphalia-cli battle list: every combat the game reaches, numbered for --combat N.
int listCommand(ArgParser& p) {
    const QString scenario = p.value(QStringLiteral("--scenario"));
    const QString actions = p.value(QStringLiteral("--actions"));
    const QString saveFile = p.value(QStringLiteral("--save"));
    const QString seedText = p.value(QStringLiteral("--seed"));
    QString problem;
    quint64 seed = 1;
    readSeed(seedText, "--seed", &seed, &problem);
    if (problem.isEmpty() && scenario.isEmpty() == saveFile.isEmpty())
        problem = QStringLiteral("give either --save FILE.tyw or --scenario ID|POSITION [--actions FILE]");
    if (!p.finish(problem))
        return 2;
    LoadResult data;
    if (!loadData({}, data))
        return 1;
    const rules::Engine engine(data.data);
    rules::GameState s;
    ActionSource src;
    QString error;
    int rc = startCampaign(engine, scenario, actions, saveFile, seed, s, &src, &error);
    int count = 0;
    bool stopped = false;
    if (rc == 0)
        rc = replayCombats(
            engine, s, src,
            [&](int k) {
                count = k;
                battle::BattleInput in;
                QString why;
                if (battle::inputFromState(*data.data, s, &in, &why))
                    out() << k << "  turn " << s.turn << "  " << in.title << "  (" << in.sides[0].units.size()
                          << " units attack " << in.sides[1].units.size() << ")\n";
                else
                    out() << k << "  turn " << s.turn << "  (" << why << ")\n";
                return false;
            },
            &error, &stopped);
    if (rc != 0) {
        err() << "westphalia-cli battle: " << error << "\n";
        return rc;
    }
    out() << count << " combat" << (count == 1 ? "" : "s")
          << "; export one with battle export ... --battle N\n";
    return 0;
}

int writeTvbd(const battle::BattleInput& in, const battle::TvbdMapping& mapping,
              const wp::tactical::TvbdRules& rules, quint64 battleSeed, const QString& outFile);

int exportCommand(ArgParser& p) {
    const QString scenario = p.value(QStringLiteral("--scenario"));
    const QString input = p.value(QStringLiteral("--input"));
    const QString actions = p.value(QStringLiteral("--actions"));
    const QString saveFile = p.value(QStringLiteral("--save"));
    QString combatText = p.value(QStringLiteral("--battle"));
    if (const QString c = p.value(QStringLiteral("--combat")); !c.isEmpty())
        combatText = c;
    const bool deploy = p.flag(QStringLiteral("--deploy"));
    const QString seedText = p.value(QStringLiteral("--seed"));
    const QString battleSeedText = p.value(QStringLiteral("--battle-seed"));
    const QString mappingFile = p.value(QStringLiteral("--mapping"));
    const QString rulesName = p.value(QStringLiteral("--rules"));
    const QString outFile = p.value(QStringLiteral("--out"));
    const QString pdfFile = p.value(QStringLiteral("--pdf"));
    const QString svgFile = p.value(QStringLiteral("--svg"));
    const QString pngFile = p.value(QStringLiteral("--png"));
    QString problem;
    quint64 seed = 1, battleSeed = 0;
    int combat = 1;
    readSeed(seedText, "--seed", &seed, &problem);
    readSeed(battleSeedText, "--battle-seed", &battleSeed, &problem);
    if (battleSeedText.isEmpty())
        battleSeed = seed;
    if (!combatText.isEmpty()) {
        bool ok = false;
        combat = combatText.toInt(&ok);
        if ((!ok || combat < 1) && problem.isEmpty())
            problem = QStringLiteral("--battle '%1' must be a whole number from 1").arg(combatText);
    }
    if (problem.isEmpty() && rulesName != QLatin1String("tvbd") && rulesName != QLatin1String("tercios"))
        problem = rulesName.isEmpty() ? QStringLiteral("--rules tvbd|tercios is needed")
                                      : QStringLiteral("--rules '%1' is not tvbd or tercios").arg(rulesName);
    if (problem.isEmpty() && int(!scenario.isEmpty()) + int(!input.isEmpty()) + int(!saveFile.isEmpty()) != 1)
        problem = QStringLiteral("give one of --scenario, --save or --input");
    if (problem.isEmpty() && outFile.isEmpty())
        problem = QStringLiteral("--out DIR or --out FILE.json is needed");
    if (!p.finish(problem))
        return 2;

    QString error;
    const bool tercios = rulesName == QLatin1String("tercios");
    const wp::tactical::TvbdRules* rules = wp::tactical::defaultTvbdRules(&error);
    if (!rules) {
        err() << "westphalia-cli battle: " << error << "\n";
        return 1;
    }
    const QString mappingPath = mappingFile.isEmpty() ? battle::defaultMappingPath() : mappingFile;
    battle::TvbdMapping mapping;
    battle::TerciosMapping terciosMapping;
    if (!(tercios ? battle::loadTerciosMapping(mappingPath, &terciosMapping, &error)
                  : battle::loadMapping(mappingPath, &mapping, &error))) {
        err() << "westphalia-cli battle: " << error << "\n";
        return 1;
    }
    if (deploy)
        (tercios ? terciosMapping.root : mapping.root).insert(QStringLiteral("deploy"), true);
    // --out DIR: the JSON, the briefing and the table map in it, named after the battle.
    QString jsonFile = outFile, pdfOut = pdfFile, svgOut = svgFile;
    if (!outFile.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        if (!QDir().mkpath(outFile)) {
            err() << "westphalia-cli battle: cannot create the directory " << outFile << "\n";
            return 1;
        }
        const QString base = QDir(outFile).filePath(QStringLiteral("%1.%2").arg(
            input.isEmpty() ? QStringLiteral("battle-%1").arg(combat) : QFileInfo(input).completeBaseName(),
            rulesName));
        jsonFile = base + QStringLiteral(".json");
        if (pdfOut.isEmpty())
            pdfOut = base + QStringLiteral(".pdf");
        if (svgOut.isEmpty())
            svgOut = base + QStringLiteral(".svg");
    }
    battle::BattleInput in;
    int attackerSide = 0; // the campaign side attacking (for the briefing's colours)
    if (!input.isEmpty()) {
        QFile f(input);
        if (!f.open(QIODevice::ReadOnly)) {
            err() << "westphalia-cli battle: cannot read " << input << ": " << f.errorString() << "\n";
            return 1;
        }
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
        if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
            err() << "westphalia-cli battle: " << input << ": offset " << pe.offset << ": "
                  << (pe.error != QJsonParseError::NoError ? pe.errorString()
                                                           : QStringLiteral("not a JSON object"))
                  << "\n";
            return 1;
        }
        if (!battle::inputFromJson(doc.object(), input, &in, &error)) {
            err() << "westphalia-cli battle: " << error << "\n";
            return 1;
        }
        // Roads toward the neighbouring cities from the map, when the description names a map city and
        // gives no roads of its own.
        if (in.roads.isEmpty()) {
            LoadResult data;
            if (!loadData({}, data))
                return 1;
            const auto byName = [&](const QString& name) {
                for (qsizetype i = 0; i < data.data->cities.size(); ++i)
                    if (data.data->cities[i].name == name)
                        return int(i);
                return -1;
            };
            const int city = byName(in.city);
            if (city >= 0) {
                battle::addMapRoads(*data.data, city, byName(in.approach), &in);
                if (in.approach.isEmpty() && !in.roads.isEmpty())
                    in.approach = in.roads.first().to;
            }
        }
    } else {
        LoadResult data;
        if (!loadData({}, data))
            return 1;
        const rules::Engine engine(data.data);
        rules::GameState s;
        ActionSource src;
        quint64 gameSeed = seed;
        int rc = startCampaign(engine, scenario, actions, saveFile, seed, s, &src, &error, &gameSeed);
        if (rc == 0)
            rc = replayToCombat(engine, s, src, combat, &error);
        // The window's seed for this battle (battle::defaultBattleSeed), unless one is given: --battle-seed,
        // or --seed with a save (whose game seed is its own).
        if (rc == 0 && battleSeedText.isEmpty() && (saveFile.isEmpty() || seedText.isEmpty()))
            battleSeed = battle::defaultBattleSeed(gameSeed, s);
        if (rc == 0 && !battle::inputFromState(*data.data, s, &in, &error))
            rc = 1;
        if (rc != 0) {
            err() << "westphalia-cli battle: " << error << "\n";
            return rc;
        }
        if (const auto* cf = std::get_if<rules::CombatFrame>(&s.frames.back()))
            attackerSide = cf->attacker;
    }
    const int rc = tercios ? writeTercios(in, terciosMapping, battleSeed, jsonFile)
                           : writeTvbd(in, mapping, *rules, battleSeed, jsonFile);
    if (rc != 0 || (pdfOut.isEmpty() && svgOut.isEmpty() && pngFile.isEmpty()))
        return rc;
    // The briefing and the table map, drawn by the window's export (views/battleexportdialog).
    BattleExportDialog dialog;
    dialog.rulesBox()->setCurrentIndex(dialog.rulesBox()->findData(rulesName));
    dialog.deployBox()->setChecked(deploy);
    if (!dialog.setInput(in, battleSeed, mappingPath, attackerSide)) {
        err() << "westphalia-cli battle: " << dialog.error() << "\n";
        return 1;
    }
    if (!pdfOut.isEmpty()) {
        if (!dialog.writePdf(pdfOut, &error)) {
            err() << "westphalia-cli battle: " << error << "\n";
            return 1;
        }
        out() << "wrote " << pdfOut << "\n";
    }
    if (!svgOut.isEmpty()) {
        if (!dialog.writeSvg(svgOut, &error)) {
            err() << "westphalia-cli battle: " << error << "\n";
            return 1;
        }
        out() << "wrote " << svgOut << "\n";
    }
    const int pages = pngFile.isEmpty() ? 0 : dialog.briefingPages(QSize(1169, 827));
    for (int page = 0; page < pages; ++page) {
        QString file = pngFile;
        if (page > 0)
            file.insert(file.endsWith(QLatin1String(".png"), Qt::CaseInsensitive) ? file.size() - 4
                                                                                  : file.size(),
                        QStringLiteral("-%1").arg(page + 1));
        if (!dialog.briefingPage(page, QSize(1169, 827)).save(file, "PNG")) {
            err() << "westphalia-cli battle: " << file << ": cannot write the image\n";
            return 1;
        }
        out() << "wrote " << file << "\n";
    }
    return 0;
}

int writeTvbd(const battle::BattleInput& in, const battle::TvbdMapping& mapping,
              const wp::tactical::TvbdRules& rules, quint64 battleSeed, const QString& outFile) {
    QString error;
    const QJsonObject o = battle::exportTvbd(in, mapping, rules, battleSeed);
    // The output must load (it always should: the tests cover it); refuse to write one that does not.
    wp::tactical::BattleState st;
    if (!wp::tactical::scenarioFromJson(o, outFile, rules, &st, &error)) {
        err() << "westphalia-cli battle: internal error, the export does not load: " << error << "\n";
        return 1;
    }
    QSaveFile f(outFile);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(o).toJson(QJsonDocument::Indented)) < 0 ||
        !f.commit()) {
        err() << "westphalia-cli battle: cannot write " << outFile << ": " << f.errorString() << "\n";
        return 1;
    }
    out() << "wrote " << outFile << ": " << in.title << ", " << st.sizeName << " table, " << st.sideName[0]
          << " " << st.originalUnits[0] << " units, " << st.sideName[1] << " " << st.originalUnits[1]
          << " units, seed " << battleSeed << "\n";
    return 0;
}

int validateCommand(ArgParser& p) {
    const QString rulesName = p.value(QStringLiteral("--rules"));
    const QString file = p.positional();
    QString problem;
    if (problem.isEmpty() && rulesName != QLatin1String("tvbd") && rulesName != QLatin1String("tercios"))
        problem = rulesName.isEmpty() ? QStringLiteral("--rules tvbd|tercios is needed")
                                      : QStringLiteral("--rules '%1' is not tvbd or tercios").arg(rulesName);
    if (problem.isEmpty() && file.isEmpty())
        problem = QStringLiteral("a scenario FILE.json is needed");
    if (!p.finish(problem))
        return 2;
    if (rulesName == QLatin1String("tercios"))
        return validateTercios(file);
    QString error;
    const wp::tactical::TvbdRules* rules = wp::tactical::defaultTvbdRules(&error);
    if (!rules) {
        err() << "westphalia-cli battle: " << error << "\n";
        return 1;
    }
    wp::tactical::BattleState s;
    if (!wp::tactical::loadScenario(file, *rules, &s, &error)) {
        err() << error << "\n";
        return 1;
    }
    int bad = 0;
    if (s.setup.recruit) {
        out() << file << ": the players recruit the armies in the set-up (10.2)\n";
        return 0;
    }
    for (int side = 0; side < 2; ++side) {
        // 16.3.2: counted against the scenario's budget when it gives one (armySize)
        const int coins = wp::tactical::armyCoins(*rules, s, side);
        const QStringList problems = wp::tactical::armyListProblemsWithBudget(*rules, s, side);
        out() << s.sideName[side] << ": " << s.originalUnits[side] << " units (breakpoint "
              << wp::tactical::TvbdEngine::armyBreakpoint(s.originalUnits[side]) << ", 15.6), " << coins
              << " coins" << (s.setup.armyCoins ? QStringLiteral(" of %1").arg(s.setup.armyCoins) : QString())
              << (s.setup.armyUnits ? QStringLiteral(" (%1 units agreed)").arg(s.setup.armyUnits) : QString())
              << ": " << (problems.isEmpty() ? QStringLiteral("legal") : QStringLiteral("ILLEGAL")) << "\n";
        for (const QString& pr : problems)
            out() << "  " << file << ": " << pr << "\n";
        bad += int(problems.size());
    }
    return bad ? 1 : 0;
}

} // namespace

int battleCommand(const QStringList& argsIn) {
    QStringList args = argsIn;
    const QString sub = args.isEmpty() ? QString() : args.takeFirst();
    ArgParser p(args, kBattleUsage);
    if (sub == QLatin1String("--help") || sub == QLatin1String("-h") || p.helpRequested()) {
        out() << kBattleUsage;
        return 0;
    }
    if (sub == QLatin1String("export"))
        return exportCommand(p);
    if (sub == QLatin1String("validate"))
        return validateCommand(p);
    if (sub == QLatin1String("list"))
        return listCommand(p);
    if (sub == QLatin1String("run"))
        return runCommand(args); // issue 10
    err() << "westphalia-cli battle: '" << sub << "' is not export, list, validate or run\n\n"
          << kBattleUsage;
    return 2;
}

} // namespace wp::cli
