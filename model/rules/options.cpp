// Optional rules (19.x): chosen at game creation as key=value pairs.
#include "rules/engine.h"

namespace wp::rules {

bool setOption(GameOptions& o, const QString& keyValue, QString* error) {
    const QString key = keyValue.section(QLatin1Char('='), 0, 0).trimmed();
    const QString value = keyValue.contains(QLatin1Char('='))
                              ? keyValue.section(QLatin1Char('='), 1).trimmed()
                              : QStringLiteral("on");
    bool on;
    if (value == QLatin1String("on") || value == QLatin1String("1") || value == QLatin1String("true"))
        on = true;
    else if (value == QLatin1String("off") || value == QLatin1String("0") || value == QLatin1String("false"))
        on = false;
    else {
        if (error)
            *error = QStringLiteral("option %1: value '%2' is not on/off").arg(key, value);
        return false;
    }
    if (key == QLatin1String("19.2a") || key == QLatin1String("stronger-imperial"))
        o.stronger_imperial = on;
    else if (key == QLatin1String("19.2b") || key == QLatin1String("guebriant"))
        o.guebriant = on;
    else if (key == QLatin1String("19.1") || key == QLatin1String("victory-19.1"))
        o.victory_19_1 = on;
    else {
        if (error)
            *error = QStringLiteral("unknown option '%1' (known: 19.1, 19.2a, 19.2b)").arg(key);
        return false;
    }
    return true;
}

QStringList optionList(const GameOptions& o) {
    QStringList l;
    if (o.victory_19_1)
        l << QStringLiteral("19.1=on");
    if (o.stronger_imperial)
        l << QStringLiteral("19.2a=on");
    if (o.guebriant)
        l << QStringLiteral("19.2b=on");
    return l;
}

} // namespace wp::rules
