// Reading JSON data files with errors that name the file, the JSON path and the problem.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace wp {

struct DataError {
    QString file; // relative to the data directory, e.g. "maps/map.json"
    QString path; // JSON path, e.g. "$.cities[3].area"
    QString message;
    QString toString() const;
};

class DataErrors {
  public:
    void add(const QString& file, const QString& path, const QString& message);
    const QList<DataError>& list() const { return m_list; }
    bool isEmpty() const { return m_list.isEmpty(); }
    qsizetype size() const { return m_list.size(); }
    QString joined(const QString& sep = QStringLiteral("\n")) const;

  private:
    QList<DataError> m_list;
};

// A value inside a JSON document, with its path, reporting problems to a DataErrors.
class JNode {
  public:
    JNode(QJsonValue value, QString file, QString path, DataErrors* errors);

    const QJsonValue& value() const { return m_value; }
    const QString& path() const { return m_path; }
    const QString& file() const { return m_file; }
    bool isNull() const { return m_value.isNull() || m_value.isUndefined(); }
    bool has(const QString& key) const;

    JNode operator[](const QString& key) const;
    JNode at(qsizetype index) const;

    // Typed reads. A missing or wrongly typed value is reported (unless optional) and the fallback
    // is returned, so loading goes on and every problem of a file is listed at once.
    QString str(const QString& fallback = {}) const;
    QString optStr(const QString& fallback = {}) const;
    int integer(int min, int max, int fallback = 0) const;
    int optInteger(int min, int max, int fallback) const;
    double number(double min, double max, double fallback = 0) const;
    bool boolean(bool fallback = false) const;
    bool optBoolean(bool fallback) const;
    QList<JNode> array(bool required = true) const;
    QStringList stringList(bool required = true) const;
    QJsonObject object() const;
    bool isObject() const { return m_value.isObject(); }
    bool isArray() const { return m_value.isArray(); }

    // Reports every key of this object that is not in `allowed` (catches misspelt field names).
    // Keys starting with '_' and the key "comment" are always allowed.
    void checkKeys(const QStringList& allowed) const;

    void error(const QString& message) const;

  private:
    QJsonValue m_value;
    QString m_file;
    QString m_path;
    DataErrors* m_errors;
};

// Parses a JSON file; on failure reports the byte offset as line:column. Returns a null node on error.
std::optional<JNode> readJsonFile(const QString& dataDir, const QString& relPath, DataErrors* errors,
                                  QByteArray* rawOut = nullptr);

} // namespace wp
