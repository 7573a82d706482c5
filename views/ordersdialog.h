// Play by e-mail: the Orders… dialog of the "By e-mail" panel (issue 7, docs/pbem.md "Standing orders").
// The player sets his standing orders - how his copy's opponent answers some of his decisions for him
// (fortress reaction, combat cards, losses, retreat, peace) - and sees the opponent's orders in force.
#pragma once

#include "save/orders.h"

#include <QDialog>
#include <QMap>

class QComboBox;
class QLabel;
class QLineEdit;

namespace wp {

class OrdersDialog : public QDialog {
    Q_OBJECT
  public:
    OrdersDialog(const GameData& d, const save::StandingOrders& mine, const save::StandingOrders& opponent,
                 QWidget* parent = nullptr);
    // The orders as set in the dialog (valid once accepted).
    save::StandingOrders orders() const { return m_orders; }
    QComboBox* box(const QString& key) const { return m_boxes.value(key); }
    QLineEdit* retreatEdit() const { return m_retreat; }
    QLabel* errorLabel() const { return m_error; }

  public slots:
    void accept() override; // checks the orders; stays open with the reason if one is wrong

  private:
    const GameData& d;
    save::StandingOrders m_orders;
    QMap<QString, QComboBox*> m_boxes;
    QLineEdit* m_retreat;
    QLabel* m_error;
};

} // namespace wp
