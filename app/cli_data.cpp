#include "cli_commands.h"
#include "cli_util.h"

#include "battle/linked.h"
#include "data/loader.h"

#include <QJsonDocument>

namespace wp::cli {

int dataCommand(const QStringList& argsIn) {
    static const char* usage = R"(usage: westphalia-cli data check [--data DIR]
       westphalia-cli data dump --json [--data DIR]

check   loads maps/, cards/ and scenarios/ from DIR (default: the installed data), checks every
        reference and rulebook constraint, prints a summary; exit 1 and one line per problem
        (file: JSON path: problem) if anything is wrong.
dump    prints the loaded, resolved data as JSON.
)";
    ArgParser ap(argsIn, usage);
    if (ap.helpRequested()) {
        out() << usage;
        return 0;
    }
    const QString sub = ap.positional();
    const QString dir = ap.value(QStringLiteral("--data"));
    const bool json = ap.flag(QStringLiteral("--json"));
    if (!ap.finish(sub.isEmpty() ? QStringLiteral("missing subcommand (check or dump)") : QString()))
        return 2;
    if (sub != QLatin1String("check") && sub != QLatin1String("dump")) {
        err() << "westphalia-cli data: unknown subcommand '" << sub << "'\n" << usage;
        return 2;
    }
    if (sub == QLatin1String("dump") && !json) {
        err() << "westphalia-cli data dump: --json is required (the only output format)\n";
        return 2;
    }
    LoadResult r;
    if (!loadData(dir, r))
        return 1;
    if (sub == QLatin1String("check")) {
        // what a PBEM start file and a battle's record name (docs/linked-battles.md): both players need the
        // same
        out() << dataSummary(*r.data) << "battle data (scenarios/battle-*.json, resources/tactical/): tvbd "
              << battle::battleDataHashIn(r.data->dataDir, QStringLiteral("tvbd")) << ", tercios "
              << battle::battleDataHashIn(r.data->dataDir, QStringLiteral("tercios")) << "\n"
              << "OK: no problems found\n";
        return 0;
    }
    out() << QJsonDocument(dumpGameData(*r.data)).toJson(QJsonDocument::Indented);
    return 0;
}

} // namespace wp::cli
