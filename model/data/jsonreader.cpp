#include "jsonreader.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>
#include <limits>

namespace wp {

QString DataError::toString() const {
    if (path.isEmpty())
        return QStringLiteral("%1: %2").arg(file, message);
    return QStringLiteral("%1: %2: %3").arg(file, path, message);
}

void DataErrors::add(const QString& file, const QString& path, const QString& message) {
    m_list.append({file, path, message});
}

QString DataErrors::joined(const QString& sep) const {
    QStringList lines;
    for (const auto& e : m_list)
        lines << e.toString();
    return lines.join(sep);
}

JNode::JNode(QJsonValue value, QString file, QString path, DataErrors* errors)
    : m_value(std::move(value)), m_file(std::move(file)), m_path(std::move(path)), m_errors(errors) {}

bool JNode::has(const QString& key) const {
    return m_value.isObject() && m_value.toObject().contains(key);
}

JNode JNode::operator[](const QString& key) const {
    QJsonValue v = m_value.isObject() ? m_value.toObject().value(key) : QJsonValue(QJsonValue::Undefined);
    return JNode(v, m_file, m_path + QLatin1Char('.') + key, m_errors);
}

JNode JNode::at(qsizetype index) const {
    QJsonValue v = m_value.isArray() ? m_value.toArray().at(index) : QJsonValue(QJsonValue::Undefined);
    return JNode(v, m_file, QStringLiteral("%1[%2]").arg(m_path).arg(index), m_errors);
}

void JNode::error(const QString& message) const {
    if (m_errors)
        m_errors->add(m_file, m_path, message);
}

static QString typeName(const QJsonValue& v) {
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("missing");
}

QString JNode::str(const QString& fallback) const {
    if (m_value.isString())
        return m_value.toString();
    if (m_value.isUndefined())
        error(QStringLiteral("missing (expected a string)"));
    else
        error(QStringLiteral("expected a string, found %1").arg(typeName(m_value)));
    return fallback;
}

QString JNode::optStr(const QString& fallback) const {
    if (isNull())
        return fallback;
    return str(fallback);
}

int JNode::integer(int min, int max, int fallback) const {
    if (!m_value.isDouble()) {
        if (m_value.isUndefined())
            error(QStringLiteral("missing (expected a whole number %1..%2)").arg(min).arg(max));
        else
            error(QStringLiteral("expected a whole number, found %1").arg(typeName(m_value)));
        return fallback;
    }
    double d = m_value.toDouble();
    if (std::floor(d) != d) {
        error(QStringLiteral("expected a whole number, found %1").arg(d));
        return fallback;
    }
    if (d < min || d > max) {
        error(QStringLiteral("%1 is out of range %2..%3").arg(d).arg(min).arg(max));
        return fallback;
    }
    return static_cast<int>(d);
}

int JNode::optInteger(int min, int max, int fallback) const {
    if (isNull())
        return fallback;
    return integer(min, max, fallback);
}

double JNode::number(double min, double max, double fallback) const {
    if (!m_value.isDouble()) {
        error(m_value.isUndefined() ? QStringLiteral("missing (expected a number)")
                                    : QStringLiteral("expected a number, found %1").arg(typeName(m_value)));
        return fallback;
    }
    double d = m_value.toDouble();
    if (d < min || d > max) {
        error(QStringLiteral("%1 is out of range %2..%3").arg(d).arg(min).arg(max));
        return fallback;
    }
    return d;
}

bool JNode::boolean(bool fallback) const {
    if (m_value.isBool())
        return m_value.toBool();
    error(m_value.isUndefined() ? QStringLiteral("missing (expected true or false)")
                                : QStringLiteral("expected true or false, found %1").arg(typeName(m_value)));
    return fallback;
}

bool JNode::optBoolean(bool fallback) const {
    if (isNull())
        return fallback;
    return boolean(fallback);
}

QList<JNode> JNode::array(bool required) const {
    QList<JNode> out;
    if (!m_value.isArray()) {
        if (required || !isNull())
            error(m_value.isUndefined()
                      ? QStringLiteral("missing (expected an array)")
                      : QStringLiteral("expected an array, found %1").arg(typeName(m_value)));
        return out;
    }
    const auto arr = m_value.toArray();
    out.reserve(arr.size());
    for (qsizetype i = 0; i < arr.size(); ++i)
        out.append(at(i));
    return out;
}

QStringList JNode::stringList(bool required) const {
    QStringList out;
    for (const JNode& n : array(required)) {
        QString s = n.str();
        if (!s.isEmpty())
            out << s;
    }
    return out;
}

QJsonObject JNode::object() const {
    if (!m_value.isObject()) {
        error(m_value.isUndefined() ? QStringLiteral("missing (expected an object)")
                                    : QStringLiteral("expected an object, found %1").arg(typeName(m_value)));
        return {};
    }
    return m_value.toObject();
}

void JNode::checkKeys(const QStringList& allowed) const {
    if (!m_value.isObject())
        return;
    const auto obj = m_value.toObject();
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const QString& k = it.key();
        if (k.startsWith(QLatin1Char('_')) || k == QLatin1String("comment") || allowed.contains(k))
            continue;
        error(QStringLiteral("unknown field '%1' (expected one of: %2)")
                  .arg(k, allowed.join(QStringLiteral(", "))));
    }
}

std::optional<JNode> readJsonFile(const QString& dataDir, const QString& relPath, DataErrors* errors,
                                  QByteArray* rawOut) {
    QFile f(dataDir + QLatin1Char('/') + relPath);
    if (!f.open(QIODevice::ReadOnly)) {
        errors->add(relPath, {}, QStringLiteral("cannot read file: %1").arg(f.errorString()));
        return std::nullopt;
    }
    const QByteArray raw = f.readAll();
    if (rawOut)
        *rawOut = raw;
    QJsonParseError pe;
    QJsonDocument doc = QJsonDocument::fromJson(raw, &pe);
    if (pe.error != QJsonParseError::NoError) {
        int line = 1, col = 1;
        for (int i = 0; i < pe.offset && i < raw.size(); ++i) {
            if (raw[i] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        errors->add(relPath, QStringLiteral("line %1, column %2").arg(line).arg(col),
                    QStringLiteral("malformed JSON: %1").arg(pe.errorString()));
        return std::nullopt;
    }
    if (!doc.isObject()) {
        errors->add(relPath, QStringLiteral("$"), QStringLiteral("expected a JSON object at the top level"));
        return std::nullopt;
    }
    return JNode(doc.object(), relPath, QStringLiteral("$"), errors);
}

} // namespace wp
