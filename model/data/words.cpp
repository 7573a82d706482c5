#include "data/words.h"

namespace wp {

QString counted(long long n, const char* noun) {
    const QString one = QLatin1String(noun);
    const QString many = one == QLatin1String("die") ? QStringLiteral("dice") : one + QLatin1Char('s');
    return QString::number(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}

} // namespace wp
