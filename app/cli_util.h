// Small command-line helpers shared by the subcommands.
#pragma once

#include "cli_commands.h"
#include "data/datadir.h"
#include "data/loader.h"

#include <QFile>
#include <QStringList>

namespace wp::cli {

// Options of the form "--name value" or "--name=value", flags "--name", and positionals. Anything not
// consumed is reported by finish() as an error naming the argument.
class ArgParser {
  public:
    ArgParser(QStringList args, const char* usage) : m_args(std::move(args)), m_usage(usage) {}
    bool helpRequested() const {
        return m_args.contains(QStringLiteral("--help")) || m_args.contains(QStringLiteral("-h"));
    }
    QString value(const QString& name) {
        for (qsizetype i = 0; i < m_args.size(); ++i) {
            if (m_args[i] == name) {
                if (i + 1 >= m_args.size() || m_args[i + 1].startsWith(QLatin1String("--"))) {
                    m_problems << QStringLiteral("%1 needs a value").arg(name);
                    m_args.removeAt(i);
                    return {};
                }
                QString v = m_args[i + 1];
                m_args.remove(i, 2);
                return v;
            }
            if (m_args[i].startsWith(name + QLatin1Char('='))) {
                QString v = m_args[i].mid(name.size() + 1);
                m_args.removeAt(i);
                return v;
            }
        }
        return {};
    }
    bool flag(const QString& name) { return m_args.removeAll(name) > 0; }
    // A whole number >= min given as `text` for option `name` (the fallback when text is empty); a bad
    // number is a problem finish() reports, naming the option and the text.
    qint64 number(const QString& text, const QString& name, qint64 min, qint64 fallback) {
        if (text.isEmpty())
            return fallback;
        bool ok = false;
        const qint64 v = text.toLongLong(&ok);
        if (!ok || v < min) {
            m_problems << QStringLiteral("%1 %2: expected a whole number >= %3").arg(name, text).arg(min);
            return fallback;
        }
        return v;
    }
    qint64 number(const QString& name, qint64 min, qint64 fallback) {
        return number(value(name), name, min, fallback);
    }
    QString positional() {
        for (qsizetype i = 0; i < m_args.size(); ++i)
            if (!m_args[i].startsWith(QLatin1String("--")))
                return m_args.takeAt(i);
        return {};
    }
    // Reports unknown arguments and problems; returns false (after printing usage) if any.
    bool finish(const QString& extraProblem = {}) {
        if (!extraProblem.isEmpty())
            m_problems << extraProblem;
        for (const QString& a : m_args)
            m_problems << QStringLiteral("unknown argument '%1'").arg(a);
        if (m_problems.isEmpty())
            return true;
        for (const QString& p : m_problems)
            err() << "westphalia-cli: " << p << "\n";
        err() << "\n" << m_usage;
        return false;
    }

  private:
    QStringList m_args;
    const char* m_usage;
    QStringList m_problems;
};

// Loads the data and prints every problem to stderr. Returns false if the data is invalid. With an explicit
// `dir` (--data) the battle files the program reads later (scenarios/battle-*.json, resources/tactical/: the
// export, the tactical engines, the battle data a PBEM file or a record names) come from it too.
inline bool loadData(const QString& dir, LoadResult& r) {
    const QString dataDir = findDataDir(dir);
    if (!dir.isEmpty())
        qputenv("WESTPHALIA_DATA", QFile::encodeName(dataDir));
    r = loadGameData(dataDir);
    if (r.ok())
        return true;
    err() << "westphalia-cli: the game data in " << dataDir << " is invalid (" << r.errors.size()
          << " problem" << (r.errors.size() == 1 ? "" : "s") << "):\n";
    for (const DataError& e : r.errors.list())
        err() << "  " << e.toString() << "\n";
    return false;
}

} // namespace wp::cli
