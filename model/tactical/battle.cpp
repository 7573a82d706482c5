#include "battle.h"

#include <QFile>
#include <QJsonDocument>

namespace wp::tactical {

namespace {
const char* const kTypeNames[] = {"Commander", "Horse", "LightHorse", "Dragoons",
                                  "PikeShot",  "Shot",  "Rabble",     "Cannon"};
const char* const kTypeLabels[] = {"Commander", "Horse", "Light Horse", "Dragoons",
                                   "Pike+Shot", "Shot",  "Rabble",      "Cannon"};
const char* const kQualityNames[] = {"superior", "ordinary", "inferior", "raw"};
} // namespace

QString typeName(UnitType t) {
    return QString::fromLatin1(kTypeNames[int(t)]);
}
QString typeLabel(UnitType t) {
    return QString::fromLatin1(kTypeLabels[int(t)]);
}

QString typeLabel(const QString& name) {
    const auto t = typeFromName(name);
    return t ? typeLabel(*t) : name;
}

std::optional<UnitType> typeFromName(const QString& s) {
    for (int i = 0; i < 8; ++i)
        if (s.compare(QLatin1String(kTypeNames[i]), Qt::CaseInsensitive) == 0 ||
            s.compare(QLatin1String(kTypeLabels[i]), Qt::CaseInsensitive) == 0)
            return UnitType(i);
    return std::nullopt;
}

QString qualityName(Quality q) {
    return QString::fromLatin1(kQualityNames[int(q)]);
}

std::optional<Quality> qualityFromName(const QString& s) {
    for (int i = 0; i < 4; ++i)
        if (s.compare(QLatin1String(kQualityNames[i]), Qt::CaseInsensitive) == 0)
            return Quality(i);
    return std::nullopt;
}

int BattleState::indexOf(const QString& id) const {
    for (qsizetype i = 0; i < units.size(); ++i)
        if (units[i].id.compare(id, Qt::CaseInsensitive) == 0)
            return int(i);
    return -1;
}

int BattleState::roll() {
    ++rolls;
    if (!scripted.isEmpty())
        return scripted.takeFirst();
    return rng.below(6) + 1;
}

QList<int> BattleState::rollDice(int n) {
    QList<int> d;
    for (int i = 0; i < n; ++i)
        d << roll();
    return d;
}

bool readJsonObject(const QString& path, QJsonObject* root, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot open: %2").arg(path, f.errorString());
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError) {
        *error = QStringLiteral("%1: offset %2: %3").arg(path).arg(pe.offset).arg(pe.errorString());
        return false;
    }
    if (!doc.isObject()) {
        *error = QStringLiteral("%1: the top level is not a JSON object").arg(path);
        return false;
    }
    *root = doc.object();
    return true;
}

} // namespace wp::tactical
