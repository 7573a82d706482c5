#include "datadir.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace wp {

QString appVersion() {
    return QStringLiteral(WESTPHALIA_VERSION);
}

QString findDataDir(const QString& explicitDir) {
    if (!explicitDir.isEmpty())
        return QDir(explicitDir).absolutePath();
    QStringList candidates;
    const QString env = qEnvironmentVariable("WESTPHALIA_DATA");
    if (!env.isEmpty())
        return QDir(env).absolutePath();
    if (QCoreApplication::instance())
        candidates << QCoreApplication::applicationDirPath() + QStringLiteral("/../share/westphalia");
    candidates << QStringLiteral(WESTPHALIA_SOURCE_DATA_DIR);
    for (const QString& c : candidates)
        if (QFileInfo::exists(c + QStringLiteral("/maps/map.json")))
            return QDir(c).absolutePath();
    return QDir(candidates.constLast()).absolutePath();
}

} // namespace wp
