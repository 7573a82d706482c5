// Subcommands of westphalia-cli. Each returns the process exit code:
// 0 success, 1 failure (invalid data, cannot write, ...), 2 bad command line.
#pragma once

#include <QStringList>
#include <QTextStream>

namespace wp::cli {

QTextStream& out();
QTextStream& err();

int dataCommand(const QStringList& args);
int mapCommand(const QStringList& args);
int playCommand(const QStringList& args);
int fuzzCommand(const QStringList& args);
int benchCommand(const QStringList& args);
int cardsCommand(const QStringList& args);
int tacticalCommand(const QStringList& args); // cli_tactical.cpp (issue 10)
int battleCommand(const QStringList& args);   // cli_battle.cpp (issue 9)
int tournamentCommand(const QStringList& args);
int saveCommand(const QStringList& args); // cli_save.cpp (issue 7)
int pbemCommand(const QStringList& args); // cli_pbem.cpp (issue 7)
int battleLinkCommand(const QStringList& args); // cli_linked.cpp (issue 12)

} // namespace wp::cli
