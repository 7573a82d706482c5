#include "sidewords.h"

namespace wp::tactical {

bool pluralName(const QString& name) {
    return name.endsWith(QLatin1Char('s')) || name.contains(QLatin1String(" and "));
}

QString conjugate(const char* verb, bool plural) {
    const QString v = QLatin1String(verb);
    if (!plural || !v.endsWith(QLatin1Char('s')))
        return v; // a singular subject, or a verb without the -s ("may")
    if (v == QLatin1String("is"))
        return QStringLiteral("are");
    if (v == QLatin1String("has"))
        return QStringLiteral("have");
    if (v == QLatin1String("was"))
        return QStringLiteral("were");
    if (v == QLatin1String("does") || v == QLatin1String("goes"))
        return v.chopped(2);
    for (const char* es : {"sses", "shes", "ches", "xes", "zes"}) // "passes", "reaches"
        if (v.endsWith(QLatin1String(es)))
            return v.chopped(2);
    if (v.endsWith(QLatin1String("ies")) && v.size() > 3 &&
        !QStringLiteral("aeiou").contains(v.at(v.size() - 4))) // "carries"
        return v.chopped(3) + QLatin1Char('y');
    return v.chopped(1);
}

QString possessive(const QString& name) {
    return name + (name.endsWith(QLatin1Char('s')) ? QStringLiteral("'") : QStringLiteral("'s"));
}

QString verbFor(const QString& side, const char* verb) {
    return conjugate(verb, pluralName(side));
}

QString subject(const QString& side, const char* verb) {
    return side + QLatin1Char(' ') + verbFor(side, verb);
}

QString its(const QString& side) {
    return pluralName(side) ? QStringLiteral("their") : QStringLiteral("its");
}

} // namespace wp::tactical
